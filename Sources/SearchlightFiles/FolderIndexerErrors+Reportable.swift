import Searchlight

// The folder indexer's errors are failures the user did not cause (a folder that cannot be
// read, libmagic, inotify, the extraction workers): exit status 1, HTTP 500, as
// ``ReportableError`` says by default.

extension FileSystemError: ReportableError {}

extension InspectionError: ReportableError {}

extension InotifyError: ReportableError {}

extension WatchError: ReportableError {}
