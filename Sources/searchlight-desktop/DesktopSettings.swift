import Searchlight

/// What the desktop service takes from the command line's configuration, given by the
/// executable that runs it (`searchlight-serve`, which links the commands): where the index
/// is, and the model of search by meaning. The module reads no configuration file itself, so
/// that it needs the search (``Searchlight/RankedSearch``) and the index, not the commands.
///
/// ```swift
/// DesktopCommand.main(settings: DesktopSettings(
///     indexLocation: { try IndexLocation.resolve(explicit: $0) },
///     questionEncoder: { MeaningModel.configured()?.questionEncoder }))
/// ```
public struct DesktopSettings: Sendable {
    /// The index `--index` names when given (else `nil`), resolved as `searchlight` resolves
    /// its `--index`: a file path or a `postgres://` URL.
    public var indexLocation: @Sendable (_ explicit: String?) throws -> String
    /// The question's encoder of the configured model, found (not loaded); `nil` when there is none.
    public var questionEncoder: @Sendable () -> QuestionEncoder?

    /// How the index and the model are found, from the executable that runs the service.
    public init(indexLocation: @escaping @Sendable (_ explicit: String?) throws -> String,
                questionEncoder: @escaping @Sendable () -> QuestionEncoder?) {
        self.indexLocation = indexLocation
        self.questionEncoder = questionEncoder
    }
}
