import ArgumentParser

/// How items are printed: `--json`, `-0`, `--relative`, `--count`, `--limit`.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object per item and line (NDJSON).")
    var json = false

    @Flag(name: .customShort("0"), help: "Print each path as raw bytes followed by NUL.")
    var nulTerminated = false

    @Flag(help: "Print paths relative to the current folder when it is inside the item's root (absolute otherwise).")
    var relative = false

    @Flag(help: "Print only the number of matching items.")
    var count = false

    @Option(help: ArgumentHelp("Print at most this many items.", valueName: "n"))
    var limit: Int?

    func validate() throws {
        if json && nulTerminated { throw ValidationError("--json and -0 cannot be used together.") }
        if let limit, limit < 0 { throw ValidationError("--limit must be zero or more.") }
    }

    var format: ItemPrinter.Format { .init(json: json, nulTerminated: nulTerminated) }
}
