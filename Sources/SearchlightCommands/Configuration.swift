import ExtractionProtocol
import Foundation
import SearchlightJSON

/// The configuration in effect: defaults, then the file
/// (`$XDG_CONFIG_HOME/searchlight/config.toml`), then command-line options. Each value
/// remembers where it came from, for `searchlight config`.
///
/// The file's format is documented in Docs/Guide/Configuration.md; ``init(text:file:home:)``
/// parses it.
struct Configuration {
    /// Where a value came from.
    enum Origin: Equatable, CustomStringConvertible {
        case defaultValue
        case file(path: String, line: Int)
        case option(String)

        var description: String {
            switch self {
            case .defaultValue: "default"
            case .file(let path, let line): "\(path):\(line)"
            case .option(let name): "option \(name)"
            }
        }
    }

    /// A value and where it came from.
    struct Setting<Value> {
        var value: Value
        var origin: Origin = .defaultValue

        init(_ value: Value, origin: Origin = .defaultValue) {
            self.value = value
            self.origin = origin
        }

        /// Replaces the value by a command-line option's, when the option was given.
        mutating func override(_ value: Value?, option: String) {
            guard let value else { return }
            self = Setting(value, origin: .option(option))
        }
    }

    /// A folder to index.
    struct Root: Equatable {
        /// The path, `~` expanded (not yet resolved: ``RootFolder`` does that).
        var path: String
        /// The domain of its items; `nil` for the canonical path.
        var domain: String?
        /// Exclusion patterns for this root only.
        var exclusions: [String] = []
        var origin: Origin = .defaultValue
    }

    /// The indexer's CPU and I/O priority.
    enum Priority: String, CaseIterable {
        /// nice 19 and the idle I/O class: the indexer works when nothing else does.
        case idle
        /// The priority the process was started with.
        case normal
    }

    /// The web server's address and token (`[server]`), read by `serve`.
    struct Server {
        var host = Setting(ServerDefaults.host)
        var port = Setting(ServerDefaults.port)
        /// Required for any address other than loopback.
        var token = Setting<String?>(nil)
    }

    /// The file read, when there was one.
    var file: String?
    var roots: [Root] = []
    /// gitignore patterns applied below every root.
    var exclusions = Setting<[String]>([])
    /// Index hidden files and folders (secrets stay out).
    var includeHidden = Setting(false)
    /// Skip `node_modules`, caches and build output.
    var defaultExclusions = Setting(true)
    var thumbnails = Setting(true)
    /// Extract the text and metadata inside documents.
    var content = Setting(true)
    /// Bytes of text kept per file.
    var textLimit = Setting(1 << 20)
    /// Seconds a decoder may spend on one file.
    var decoderDeadline = Setting(10)
    /// Text in pictures (Docs/Contract.md#text-in-pictures): OCR's switch, languages, page limit and per-page deadline.
    var ocr = Setting(true)
    /// Empty for the default, ``ocrLanguageList``'s.
    var ocrLanguages = Setting<[String]>([])
    var ocrPageLimit = Setting(10)
    var ocrPageDeadline = Setting(20)
    /// Search by meaning (Docs/Contract.md#search-by-meaning): its switch, the model's folder
    /// (else the places ``Embedding/ModelFolder`` looks in), and the most chunks of one text.
    var meaning = Setting(true)
    var meaningModel = Setting<String?>(nil)
    var meaningChunks = Setting(8)

    /// OCR's languages: the configured ones, else English and the languages of the person's
    /// locale whose data is installed — looked up only when asked, not at every start-up.
    var ocrLanguageList: [String] {
        guard ocrLanguages.value.isEmpty else { return ocrLanguages.value }
        return TesseractLanguages.defaults(environment: ProcessInfo.processInfo.environment,
                                           installed: TesseractLanguages.installed())
    }
    /// Seconds between the watcher's self-checks of the whole tree; 0 for never.
    var selfCheckInterval = Setting(600)
    /// Seconds between rescans of folders that could not be watched.
    var rescanInterval = Setting(300)
    /// Back off (longer windows) under CPU or I/O pressure and on battery.
    var backoff = Setting(true)
    /// Removable drives (Docs/Contract.md#removable-drives): index every filesystem mounted
    /// in `places` (empty: UDisks2's `/media/$USER` and `/run/media/$USER`), each a domain
    /// of its own, kept offline this many days.
    var removable = Setting(false)
    var removablePlaces = Setting<[String]>([])
    var keepOfflineDays = Setting(3)
    var priority = Setting(Priority.idle)
    /// The index: a file (`~/` expanded) or a `postgres://` URL; `nil` for the default file.
    var index = Setting<String?>(nil)
    var server = Server()
    /// The file's mistakes, in the order of its lines: each leaves its setting at the default,
    /// and stops only the commands that read its section (``usable(reading:)``).
    var problems: [ConfigurationError] = []

    init() {}
}
