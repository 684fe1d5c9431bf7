extension Array where Element == String {
    /// The strings with `separator` between them, as the standard library's
    /// `joined(separator:)` writes them, by appending in place: that one runs unspecialized
    /// here and makes its iterator's type at its first use, a tenth of a millisecond of every
    /// search (Benchmarks/README.md, "Start-up"), where each query's expression joins its words.
    func joinedInPlace(separator: String) -> String {
        var joined = ""
        for (index, string) in enumerated() {
            if index > 0 { joined += separator }
            joined += string
        }
        return joined
    }
}
