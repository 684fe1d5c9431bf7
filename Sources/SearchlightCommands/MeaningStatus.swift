import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON

/// Search by meaning in `status` (Docs/Contract.md#search-by-meaning): the model in use and how
/// far its pass is, or, without a model, how to add one.
struct MeaningStatus {
    /// `[meaning] enabled`.
    var enabled: Bool
    var folder: String?
    /// The model's identifier, when it could be loaded.
    var model: String?
    /// Why the folder's model could not be loaded.
    var problem: String?
    var progress: MeaningProgress?

    init(index: any IndexWriter, configuration: Configuration, environment: [String: String] = ProcessInfo.processInfo.environment) {
        enabled = configuration.meaning.value
        let found = MeaningModel.configured(in: configuration, environment: environment)
        folder = found?.folder.string
        if enabled, let found {
            do {
                model = try found.load().identifier
            } catch {
                problem = "\(error)"
            }
        }
        progress = try? index.meaningProgress(model: model)
    }

    /// One line or two of `status`.
    var line: String {
        guard enabled else { return "meaning: off ([meaning] enabled = false): search is by words\n" }
        guard let folder else { return "meaning: no model installed: search is by words; \(MeaningModel.advice)\n" }
        guard let model else { return "meaning: cannot load the model in \(folder): \(problem ?? "unknown error"); search is by words\n" }
        var line = "meaning: model \(model) (\(folder))"
        if let progress {
            line += "\n  embedded:    \(progress.embedded) of \(progress.items) texts"
            if progress.chunks > 0 {
                line += ", \(progress.chunks) chunks, \(progress.bytes / max(progress.chunks, 1)) bytes a chunk"
            }
        }
        return line + "\n"
    }

    /// `status --json`'s object with `"meaning": {…}`.
    func adding(to object: [UInt8]) -> [UInt8] {
        guard object.last == UInt8(ascii: "}") else { return object }
        var meaning = JSONLine()
        meaning.add("enabled", enabled)
        meaning.add("folder", folder)
        meaning.add("model", model)
        meaning.add("problem", problem)
        if folder == nil { meaning.add("advice", MeaningModel.advice) }
        if let progress {
            meaning.add("texts", progress.items)
            meaning.add("embedded", progress.embedded)
            meaning.add("chunks", progress.chunks)
            meaning.add("bytes", progress.bytes)
        }
        return object.dropLast() + Array(",\"meaning\":".utf8) + meaning.finished + [UInt8(ascii: "}")]
    }
}
