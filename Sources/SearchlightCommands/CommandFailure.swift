import ArgumentParser
import Searchlight

/// Turns library errors into one clear line on standard error and the right exit status.
enum CommandFailure {
    /// Runs `body`; on a ``ReportableError`` prints `searchlight: message` (with the advice a
    /// command can give, and a caret under a malformed query) and exits with the error's
    /// ``ReportableError/exitStatus`` (64 for a usage error, 1 otherwise; Docs/Contract.md#command-line).
    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SearchlightError where error.isDamage && rebuildsDamage {
            // ``rebuildingDamage(_:_:)`` resets the index and runs its work again.
            throw error
        } catch let error as any ReportableError {
            let caret = (error as? QueryParseError).map { "\n" + $0.caretDisplay } ?? ""
            StandardError.write("searchlight: \(error)\(advice(for: error))\(caret)\n")
            throw ExitCode(error.exitStatus)
        }
    }

    /// What the user can do about `error`, when a command knows (the library names none).
    static func advice(for error: any ReportableError) -> String {
        switch error {
        case let error as SearchlightError: advice(for: error)
        case let error as any IndexStoreError where error.isUnavailable: unreachableAdvice
        default: ""
        }
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
