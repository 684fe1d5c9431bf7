import Searchlight

/// The name a person probably meant: the closest of some names by edit distance (a swap of
/// neighbours counts one, ``Searchlight/SpellingNeighbors/distance(_:_:)``), ignoring case,
/// when it is within a third of the typed name's length (at least one edit).
enum ClosestName {
    static func closest(to typed: String, among names: [String]) -> String? {
        let wanted = Array(typed.lowercased().unicodeScalars)
        let allowed = max(1, wanted.count / 3)
        return names.map { (name: $0, edits: SpellingNeighbors.distance(wanted, Array($0.lowercased().unicodeScalars))) }
            .filter { $0.edits <= allowed }
            .min { ($0.edits, $0.name) < ($1.edits, $1.name) }?.name
    }
}
