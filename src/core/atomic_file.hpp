// Whole-file writes that readers and other processes never see half done, and an advisory lock
// for read-merge-write cycles across processes. Used for every file Switchyard writes under its
// cache directory: the calibration profile, kernel cache entries, the trace.
#pragma once

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
// lifetime; blocks until it is had. When the file cannot be opened or locked, holds nothing and
// held() is false: callers go on unlocked (a read-only directory cannot be written anyway).
class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace switchyard
