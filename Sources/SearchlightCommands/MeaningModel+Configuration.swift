import Foundation
import SearchlightFiles

extension MeaningModel {
    /// The model the configuration file's `[meaning]` names (else the first of the standard
    /// places that holds one): what `search`, `serve` and the desktop's search ask questions
    /// with. Nil when there is none or `enabled = false`. A file with a mistake is read for
    /// what it says right (a search does not check the configuration).
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> MeaningModel? {
        configured(in: Configuration.load(explicit: nil, environment: environment), environment: environment)
    }

    /// The model `configuration`'s `[meaning]` names; nil when there is none or `enabled = false`.
    static func configured(in configuration: Configuration, environment: [String: String]) -> MeaningModel? {
        guard configuration.meaning.value else { return nil }
        return find(configured: configuration.meaningModel.value, environment: environment)
    }
}
