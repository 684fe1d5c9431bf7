import Searchlight

/// Where the index is, for a program other than `searchlight` that reads it (the desktop's
/// search providers): the rule of `--index` (``IndexOptions``), shared.
public enum IndexLocation {
    /// `explicit` (an `--index` given), else `$SEARCHLIGHT_INDEX`, else the configuration file's
    /// `index`, else `$XDG_DATA_HOME/searchlight/index.sqlite`: a file path or a `postgres://` URL.
    /// - Throws: an `ExitCode` (64) when the configuration file cannot be used, its reason
    ///   already printed on standard error.
    public static func resolve(explicit: String?) throws -> String {
        try IndexOptions.parse(explicit.map { ["--index", $0] } ?? []).location()
    }
}
