import CMagicLoader

/// Finds a file's MIME type and libmagic's description of it, running libmagic's expensive
/// pass (its thousands of "soft" magic tests) once per file where it can, not twice.
///
/// libmagic answers one question per pass: either the description or the MIME type, and
/// each full pass costs the same (1.2 ms for a plain text file here, nearly all of it regular
/// expressions). The description is asked first, always. The MIME type is then looked up by
/// the pair (description, encoding): libmagic derives both answers from the same matching
/// entry, so two files that got the same full description and the same text encoding got the
/// same MIME type too. Only the first file of each pair pays for a MIME pass. The encoding
/// pass skips the soft tests and costs a few microseconds.
///
/// Measured on 13 000 files (a generated tree and `/usr/share`): 54–93 % of the MIME passes
/// saved, no file typed differently from `file --mime-type`. The benchmark reports the
/// agreement on every tree it measures.
///
/// One per thread, like the ``Magic`` handles it owns.
final class ContentIdentifier {
    private let mimeType: Magic
    private let describer: Magic
    private let encoding: Magic

    /// MIME types learned from full passes, by description and encoding.
    private var learnedTypes: [Key: String] = [:]

    /// How many MIME types it has learned (and paid a full pass for) so far.
    var typesLearned: Int { learnedTypes.count }

    /// Bounds the table: descriptions that carry sizes or dates rarely repeat.
    static let learnedTypesLimit = 4096

    private struct Key: Hashable {
        var description: String
        var encoding: String
    }

    /// What libmagic says of one file.
    struct Identity: Equatable {
        var contentType: String
        var description: String
    }

    /// Opens the three libmagic handles.
    init() throws(InspectionError) {
        describer = try Magic(flags: MAGIC_NONE)
        mimeType = try Magic(flags: MAGIC_MIME_TYPE)
        encoding = try Magic(flags: MAGIC_MIME_ENCODING | Self.withoutSoftTests)
    }

    /// Every test but the text encoding: what libmagic's encoding answer needs.
    private static let withoutSoftTests: Int32 =
        MAGIC_NO_CHECK_SOFT | MAGIC_NO_CHECK_TAR | MAGIC_NO_CHECK_CDF | MAGIC_NO_CHECK_ELF | MAGIC_NO_CHECK_CSV
        | MAGIC_NO_CHECK_JSON | MAGIC_NO_CHECK_COMPRESS | MAGIC_NO_CHECK_APPTYPE

    /// The MIME type and the description of the open file.
    func identify(descriptor: Int32) throws(InspectionError) -> Identity {
        let text = try describer.identify(descriptor: descriptor)
        let key = Key(description: text, encoding: try encoding.identify(descriptor: descriptor))
        if let type = learnedTypes[key] { return Identity(contentType: type, description: text) }
        let type = try mimeType.identify(descriptor: descriptor)
        if learnedTypes.count >= Self.learnedTypesLimit { learnedTypes.removeAll(keepingCapacity: true) }
        learnedTypes[key] = type
        return Identity(contentType: type, description: text)
    }
}
