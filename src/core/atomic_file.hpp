// Whole-file writes that readers and other processes never see half done, and an advisory lock
// for work one process at a time should do (a read-merge-write cycle, building a cache entry). Used
// for every file Switchyard writes under its cache directory: the calibration profile, kernel cache
// entries, the trace.
#pragma once

#include <chrono>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace switchyard {

// Replaces `path` with the concatenation of `parts` in one step: writes a temp file with a
// unique name in the same directory (mkstemp: "<name>.tmp.XXXXXX"), fsyncs it, and renames it
// over `path` (atomic within a file system). A reader sees the old file or the whole new one;
// concurrent writers each replace the file whole. Creates no directory. Returns "" on success,
// else why not (the temp file is removed); never throws.
std::string write_file_atomically(const std::filesystem::path& path,
                                  std::initializer_list<std::string_view> parts);

// Whether a file name is one of write_file_atomically's temp files.
bool is_atomic_temp_name(std::string_view file_name);

// An exclusive advisory lock (flock) on `path` (created if absent), held for the object's
// lifetime. When the file cannot be opened or locked, holds nothing and held() is false: callers
// go on unlocked (a read-only directory cannot be written anyway). The kernel releases a flock
// lock when its holder's last descriptor closes, so a holder that dies never blocks others.
class FileLock {
 public:
  // Blocks until the lock is had.
  explicit FileLock(const std::filesystem::path& path);
  // Gives up after `max_wait` (held() is false): for callers that can go on without the lock.
  FileLock(const std::filesystem::path& path, std::chrono::milliseconds max_wait);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }
  // Deletes the lock file on release, still holding it, so that none is left behind. Safe with
  // waiters: one that opened the deleted file sees that it is no longer at `path` and retries.
  void remove_on_release() { remove_on_release_ = true; }

 private:
  enum class Attempt { Held, Busy, Failed };
  Attempt attempt(int flock_operation);

  std::filesystem::path path_;
  int fd_ = -1;
  bool remove_on_release_ = false;
};

}  // namespace switchyard
