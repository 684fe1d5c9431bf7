import ArgumentParser
import Searchlight
import SearchlightFiles

/// Turns library errors into one clear line on standard error and the right exit status.
enum CommandFailure {
    /// Runs `body`; on a known error prints `searchlight: message` and exits 1 (64 for a malformed query).
    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as QueryParseError {
            StandardError.write("searchlight: \(error)\n\(error.caretDisplay)\n")
            throw ExitCode(64)
        } catch let error as SearchlightError {
            StandardError.write("searchlight: \(error)\n")
            throw ExitCode(error.code == .invalidQuery ? 64 : 1)
        } catch let error as FileSystemError {
            StandardError.write("searchlight: \(error)\n")
            throw ExitCode.failure
        } catch let error as InspectionError {
            StandardError.write("searchlight: \(error)\n")
            throw ExitCode.failure
        }
    }

    /// Prints `message` and exits with `code`.
    static func fail(_ message: String, code: Int32 = 1) -> ExitCode {
        StandardError.write("searchlight: \(message)\n")
        return ExitCode(code)
    }
}
