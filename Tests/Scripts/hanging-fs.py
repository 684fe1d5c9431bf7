#!/usr/bin/python3
"""A FUSE filesystem for tests: it shows the folder BACKING at MOUNTPOINT, read-only, and
stops answering (every request waits) while the file SWITCH exists, as a network server that
hangs. Runs in the foreground until unmounted.

    Tests/Scripts/hanging-fs.py BACKING MOUNTPOINT SWITCH

Needs Debian's python3-fusepy (libfuse2) and /dev/fuse; run it with /usr/bin/python3."""
import errno, os, sys, time
from fusepy import FUSE, FuseOSError, Operations

if len(sys.argv) != 4:
    sys.exit(__doc__)
BACKING, MOUNTPOINT, SWITCH = sys.argv[1:]


def answering():
    """Waits while the switch is on: the kernel's request stays unanswered."""
    while os.path.exists(SWITCH):
        time.sleep(0.05)


class Hanging(Operations):
    def _path(self, path):
        return os.path.join(BACKING, path.lstrip("/"))

    def getattr(self, path, fh=None):
        answering()
        try:
            st = os.lstat(self._path(path))
        except OSError as error:
            raise FuseOSError(error.errno)
        return {key: getattr(st, key) for key in ("st_mode", "st_nlink", "st_size", "st_uid", "st_gid",
                                                  "st_atime", "st_mtime", "st_ctime", "st_ino")}

    def readdir(self, path, fh):
        answering()
        return [".", ".."] + os.listdir(self._path(path))

    def opendir(self, path):
        answering()
        return 0

    def open(self, path, flags):
        answering()
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise FuseOSError(errno.EROFS)
        return os.open(self._path(path), os.O_RDONLY)

    def read(self, path, size, offset, fh):
        answering()
        return os.pread(fh, size, offset)

    def release(self, path, fh):
        os.close(fh)
        return 0

    def statfs(self, path):
        answering()
        st = os.statvfs(BACKING)
        return {key: getattr(st, key) for key in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                                                  "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}


if __name__ == "__main__":
    # Threads: a request that waits does not stop the others from being read (and the
    # switch going off is seen by each).
    FUSE(Hanging(), MOUNTPOINT, foreground=True, nothreads=False, ro=True, fsname="hanging",
         subtype="hanging", attr_timeout=0, entry_timeout=0)
