#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace switchyard {
namespace {

constexpr std::string_view kTempMarker = ".tmp.";

bool write_all(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string failure(const char* what, const std::string& path) {
  return std::string("cannot ") + what + " '" + path + "': " + std::strerror(errno);
}

}  // namespace

std::string write_file_atomically(const std::filesystem::path& path,
                                  std::initializer_list<std::string_view> parts) {
  std::string name = path.string() + std::string(kTempMarker) + "XXXXXX";
  std::vector<char> temp(name.begin(), name.end());
  temp.push_back('\0');
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return failure("create", name);
  name = temp.data();
  std::string error;
  // mkstemp creates 0600; others may read the cache as they may read any file made with 0644.
  // (Reading the umask would change it for every thread for a moment.)
  if (::fchmod(fd, 0644) != 0) error = failure("set the mode of", name);
  for (std::string_view part : parts)
    if (error.empty() && !write_all(fd, part)) error = failure("write", name);
  if (error.empty() && ::fsync(fd) != 0) error = failure("sync", name);
  if (::close(fd) != 0 && error.empty()) error = failure("close", name);
  if (error.empty() && ::rename(name.c_str(), path.c_str()) != 0)
    error = failure("rename", name) + " to '" + path.string() + "'";
  if (!error.empty()) ::unlink(name.c_str());
  return error;
}

bool is_atomic_temp_name(std::string_view file_name) {
  return file_name.find(kTempMarker) != std::string_view::npos;
}

FileLock::FileLock(const std::filesystem::path& path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) return;
  int rc;
  do rc = ::flock(fd_, LOCK_EX);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the lock
}

}  // namespace switchyard
