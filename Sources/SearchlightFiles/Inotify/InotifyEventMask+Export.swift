// The kernel's event bits live with the system calls that take them (SystemCalls); the watcher's
// API names them, so its users see them through this module.
@_exported import struct SystemCalls.InotifyEventMask
