import Searchlight

/// The valid name a mistyped one most likely meant, for a "did you mean" hint: a command
/// (`serach` → `search`), a table or key of the configuration file (`[[root]]` → `[[roots]]`,
/// `exclude` → `exclusions`).
///
/// Names are compared by their Damerau–Levenshtein distance (a letter left out, added or
/// replaced, or two neighbours swapped: one edit each), ignoring case. A name is close enough
/// to be suggested when it is at most one edit away from a name of up to 4 letters, two from
/// one of up to 8, three beyond; or when the two share a start of 4 letters or more that is at
/// least half of each (`exclude`, `exclusions`). Of the close names, the nearest wins, the
/// first given on a tie.
///
/// A list of a dozen names is compared name by name; ``SpellingNeighbors`` (the library's
/// corrections of search words) goes the other way, making a word's neighbours to look up in a
/// vocabulary too large to compare with.
///
/// ```swift
/// ClosestName.suggestion(for: "serach", among: ["scan", "search", "serve"])  // "search"
/// ClosestName.suggestion(for: "frobnicate", among: ["scan", "search"])       // nil
/// ```
enum ClosestName {
    /// The name of `candidates` that `name` most likely meant, or `nil` when none is close enough.
    static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates where isClose(name, candidate) {
            let distance = distance(name, candidate)
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Whether `candidate` is close enough to `name` to be suggested for it.
    static func isClose(_ name: String, _ candidate: String) -> Bool {
        let typed = Array(name.lowercased()), valid = Array(candidate.lowercased())
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        if distance(name, candidate) <= allowed { return true }
        let shared = zip(typed, valid).prefix { $0 == $1 }.count
        return shared >= 4 && 2 * shared >= max(typed.count, valid.count)
    }

    /// The Damerau–Levenshtein distance of two names, ignoring case: the fewest letters left
    /// out, added or replaced, and neighbours swapped, that make one the other (each letter
    /// edited once: the optimal string alignment distance, the library's
    /// ``Searchlight/SpellingNeighbors/distance(_:_:)``).
    static func distance(_ first: String, _ second: String) -> Int {
        SpellingNeighbors.distance(Array(first.lowercased().unicodeScalars), Array(second.lowercased().unicodeScalars))
    }
}
