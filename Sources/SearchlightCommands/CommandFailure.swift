import ArgumentParser
import Searchlight
import SearchlightFiles

/// Turns library errors into one clear line on standard error and the right exit status.
enum CommandFailure {
    /// Runs `body`; on a known error prints `searchlight: message` (with the advice a command can
    /// give) and exits 1, or 64 for a malformed query (Docs/Contract.md#command-line).
    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as QueryParseError {
            StandardError.write("searchlight: \(error)\n\(error.caretDisplay)\n")
            throw ExitCode(64)
        } catch let error as SearchWordsError {
            StandardError.write("searchlight: \(error)\n")
            throw ExitCode(64)
        } catch let error as SearchlightError where error.isDamage && rebuildsDamage {
            // ``rebuildingDamage(_:_:)`` resets the index and runs its work again.
            throw error
        } catch let error as SearchlightError {
            StandardError.write("searchlight: \(error)\(advice(for: error))\n")
            throw ExitCode(error.code == .invalidQuery ? 64 : 1)
        } catch let error as any IndexStoreError {
            StandardError.write("searchlight: \(error)\(error.isUnavailable ? unreachableAdvice : "")\n")
            throw ExitCode(error.isUsageError ? 64 : 1)
        } catch where isSubsystemError(error) {
            StandardError.write("searchlight: \(error)\n")
            throw ExitCode.failure
        }
    }

    /// Whether `error` is one of the subsystems' errors, each of which prints as one clear line:
    /// the file indexer's, libmagic's, inotify's, the watch's and the extraction workers'.
    static func isSubsystemError(_ error: any Error) -> Bool {
        error is FileSystemError || error is InspectionError || error is InotifyError || error is WatchError
            || error is ExtractorSystemError || error is ExtractionFailure
    }

    /// What the user can do about an index error, when a command does it (the library names none).
    static func advice(for error: SearchlightError) -> String {
        switch error.code {
        case .noIndex: "; run `searchlight scan FOLDER` first"
        case .outdatedIndex: "; run `searchlight scan FOLDER` once to upgrade it"
        case .damagedIndex: damageAdvice
        default:
            error.isDiskFull ? "; free some disk space and run the command again"
                : error.isUnavailable ? unreachableAdvice : ""
        }
    }

    /// What to do when the index's database cannot be reached.
    static let unreachableAdvice = "; check that the database server is running and can be reached "
        + "(running watches retry until it is back)"

    /// Prints `message` and exits with `code`.
    static func fail(_ message: String, code: Int32 = 1) -> ExitCode {
        StandardError.write("searchlight: \(message)\n")
        return ExitCode(code)
    }
}
