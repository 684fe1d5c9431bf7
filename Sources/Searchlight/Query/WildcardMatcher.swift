/// Matches sequences against patterns of elements and wildcards, in O(n·m) at worst.
enum WildcardMatcher {
    enum Token<Element: Sendable>: Sendable {
        case element(Element)
        case wildcard
    }

    static func matches<Element: Equatable & Sendable>(_ text: [Element], _ pattern: [Token<Element>]) -> Bool {
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, case .element(let element) = pattern[p], element == text[t] {
                t += 1
                p += 1
            } else if p < pattern.count, case .wildcard = pattern[p] {
                // Remember the wildcard; first try matching it with nothing.
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                // Let the last wildcard swallow one more element and retry.
                starT += 1
                t = starT
                p = starP + 1
            } else {
                return false
            }
        }
        while p < pattern.count, case .wildcard = pattern[p] { p += 1 }
        return p == pattern.count
    }
}
