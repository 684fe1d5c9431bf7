import SystemCalls


/// Tesseract's languages as Debian installs them: which are installed, which the person's
/// locale asks for, which read a script, and the package that has each.
///
/// Shared by the indexer (the default `ocr-languages`, `status`) and the worker (the languages
/// a page in another script is read again with), so that the two agree.
///
/// Pure functions, but for ``installed(in:)``, which lists two folders: cheap enough for
/// `status`, and called once by a worker when its engine starts.
///
/// ```swift
/// let installed = TesseractLanguages.installed()                 // ["deu", "eng"]
/// TesseractLanguages.defaults(environment: ["LANG": "de_AT.UTF-8"], installed: installed)  // ["eng", "deu"]
/// TesseractLanguages.debianPackage(of: "fra")                     // "tesseract-ocr-fra"
/// ```
public enum TesseractLanguages {
    /// Where Debian installs Tesseract's language data, newest first.
    public static let dataFolders = ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"]

    /// The languages whose `LANG.traineddata` is in one of `folders` (`osd` and the script
    /// models under `script/` are not languages), sorted.
    ///
    /// A folder that does not exist or cannot be read is skipped. `equ` (equations) is left out
    /// as well.
    ///
    /// - Parameter folders: Where to look.
    /// - Returns: The languages, each once.
    public static func installed(in folders: [String] = dataFolders) -> [String] {
        var names = Set<String>()
        for folder in folders {
            guard let entries = try? SystemCall.entryNames(ofPath: folder) else { continue }
            for entry in entries {
                let name = String(decoding: entry, as: UTF8.self)
                guard name.hasSuffix(".traineddata") else { continue }
                let language = String(name.dropLast(".traineddata".count))
                if language != "osd" && language != "equ" { names.insert(language) }
            }
        }
        return names.sorted()
    }

    /// `tesseract-ocr-deu` for `deu`; `chi_sim` is in `tesseract-ocr-chi-sim`.
    public static func debianPackage(of language: String) -> String {
        "tesseract-ocr-" + String(language.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    /// The Tesseract languages of the person's locale, in the order the environment gives
    /// them (`LANGUAGE`'s list, then `LC_ALL`, `LC_MESSAGES`, `LANG`): `de_AT.UTF-8` is `deu`,
    /// `zh_TW` is `chi_tra`; `C` and `POSIX` are none.
    ///
    /// - Parameter environment: The process's environment.
    /// - Returns: The languages, each once; a locale whose language Tesseract has no model for is
    ///   left out.
    public static func ofLocale(_ environment: [String: String]) -> [String] {
        var locales: [String] = []
        if let list = environment["LANGUAGE"], !list.isEmpty { locales += list.split(separator: ":").map(String.init) }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { locales.append(value) }
        }
        var languages: [String] = []
        for locale in locales {
            let base = locale.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? locale
            let parts = base.split(separator: "_", maxSplits: 1).map { $0.lowercased() }
            guard let code = parts.first else { continue }
            let language: String?
            if code == "zh" {
                language = parts.count > 1 && ["tw", "hk", "mo"].contains(parts[1]) ? "chi_tra" : "chi_sim"
            } else {
                language = isoToTesseract[code]
            }
            if let language, !languages.contains(language) { languages.append(language) }
        }
        return languages
    }

    /// The default `ocr-languages`: English, then the locale's languages that are installed.
    ///
    /// - Parameters:
    ///   - environment: The process's environment, for the locale.
    ///   - installed: The installed languages (``installed(in:)``).
    /// - Returns: `eng` first, then the locale's installed languages, each once.
    public static func defaults(environment: [String: String], installed: [String]) -> [String] {
        var languages = ["eng"]
        for language in ofLocale(environment) where installed.contains(language) && !languages.contains(language) {
            languages.append(language)
        }
        return languages
    }

    /// ISO 639-1 codes of locales to Tesseract's language names (ISO 639-2/T, mostly).
    ///
    /// Chinese is not here: its variant depends on the region (``ofLocale(_:)``).
    static let isoToTesseract: [String: String] = [
        "af": "afr", "am": "amh", "ar": "ara", "as": "asm", "az": "aze", "be": "bel", "bg": "bul", "bn": "ben",
        "bo": "bod", "bs": "bos", "ca": "cat", "cs": "ces", "cy": "cym", "da": "dan", "de": "deu", "el": "ell",
        "en": "eng", "eo": "epo", "es": "spa", "et": "est", "eu": "eus", "fa": "fas", "fi": "fin", "fr": "fra",
        "ga": "gle", "gl": "glg", "gu": "guj", "he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "hy": "hye",
        "id": "ind", "is": "isl", "it": "ita", "ja": "jpn", "ka": "kat", "kk": "kaz", "km": "khm", "kn": "kan",
        "ko": "kor", "ky": "kir", "lo": "lao", "lt": "lit", "lv": "lav", "mk": "mkd", "ml": "mal", "mn": "mon",
        "mr": "mar", "ms": "msa", "mt": "mlt", "my": "mya", "nb": "nor", "ne": "nep", "nl": "nld", "nn": "nor",
        "no": "nor", "or": "ori", "pa": "pan", "pl": "pol", "pt": "por", "ro": "ron", "ru": "rus", "si": "sin",
        "sk": "slk", "sl": "slv", "sq": "sqi", "sr": "srp", "sv": "swe", "sw": "swa", "ta": "tam", "te": "tel",
        "tg": "tgk", "th": "tha", "tl": "tgl", "tr": "tur", "ug": "uig", "uk": "ukr", "ur": "urd", "uz": "uzb",
        "vi": "vie", "yi": "yid",
    ]

    /// The languages that write each script, by the name Tesseract's script detector gives it
    /// (`osd.traineddata`), most widely read first. Latin is not here: a Latin page is read
    /// with the configured languages.
    static let byScript: [(script: String, languages: [String])] = [
        ("Greek", ["ell", "grc"]),
        ("Cyrillic", ["rus", "ukr", "bul", "srp", "mkd", "bel", "kaz", "kir", "mon", "tgk", "uzb_cyrl"]),
        ("Arabic", ["ara", "fas", "urd", "pus", "uig", "snd"]),
        ("Hebrew", ["heb", "yid"]),
        ("Devanagari", ["hin", "mar", "nep", "san"]),
        ("Bengali", ["ben", "asm"]),
        ("Han", ["chi_sim", "chi_tra", "jpn"]),
        ("Japanese", ["jpn"]),
        ("Hangul", ["kor"]),
        ("Korean", ["kor"]),
        ("Thai", ["tha"]),
        ("Lao", ["lao"]),
        ("Khmer", ["khm"]),
        ("Myanmar", ["mya"]),
        ("Georgian", ["kat"]),
        ("Armenian", ["hye"]),
        ("Ethiopic", ["amh", "tir"]),
        ("Tamil", ["tam"]),
        ("Telugu", ["tel"]),
        ("Kannada", ["kan"]),
        ("Malayalam", ["mal"]),
        ("Gujarati", ["guj"]),
        ("Gurmukhi", ["pan"]),
        ("Oriya", ["ori"]),
        ("Sinhala", ["sin"]),
        ("Tibetan", ["bod"]),
    ]

    /// For each script that none of `configured` writes, the installed languages that do,
    /// as the worker's table: `Greek:ell,Cyrillic:rus+ukr`. A page in such a script is read
    /// again with them (at most three languages a script, to bound the engine's memory).
    public static func scriptTable(configured: [String], installed: [String]) -> String {
        byScript.compactMap { script, languages in
            guard !languages.contains(where: configured.contains) else { return nil }
            let available = languages.filter(installed.contains).prefix(3)
            return available.isEmpty ? nil : "\(script):" + available.joined(separator: "+")
        }.joined(separator: ",")
    }
}
