import Foundation
@testable import Searchlight

/// Query strings made from the values of a set of items: every attribute (by our name and by
/// Apple's), every operator, every combination of modifiers, exact values, words, wildcards at
/// either end or inside, single-quoted values, numbers around the items' own, every `$time` form
/// with offsets, ISO dates and seconds, `InRange`, and `&&`, `||`, `!` and parentheses nested.
struct QueryGenerator {
    var random: SeededRandom
    let items: [SearchableItem]
    /// What was generated, for the coverage the test asks of it.
    private(set) var attributesUsed: Set<QueryAttribute> = []
    private(set) var operatorsUsed: Set<String> = []
    private(set) var modifiersUsed: Set<String> = []

    init(seed: UInt64, items: [SearchableItem]) {
        random = SeededRandom(seed: seed)
        self.items = items
    }

    static let textAttributes: [QueryAttribute] = [
        .displayName, .title, .authors, .contentType, .contentTypeTree, .contentDescription, .keywords, .textContent,
        .acquisitionMake, .acquisitionModel, .userTags, .comment, .whereFroms, .path, .domain, .anyText,
    ]
    static let numberAttributes: [QueryAttribute] = [.size, .pixelWidth, .pixelHeight, .pageCount, .latitude, .longitude, .starRating]
    static let dateAttributes: [QueryAttribute] = [.contentModificationDate, .contentCreationDate]
    static let aliases: [QueryAttribute: String] = [
        .displayName: "kMDItemDisplayName", .title: "kMDItemTitle", .authors: "kMDItemAuthors", .contentType: "kMDItemContentType",
        .contentTypeTree: "kMDItemContentTypeTree", .contentDescription: "kMDItemDescription", .keywords: "kMDItemKeywords",
        .textContent: "kMDItemTextContent", .size: "kMDItemFSSize", .contentModificationDate: "kMDItemFSContentChangeDate",
        .contentCreationDate: "kMDItemContentCreationDate", .pixelWidth: "kMDItemPixelWidth", .pixelHeight: "kMDItemPixelHeight",
        .pageCount: "kMDItemNumberOfPages", .acquisitionMake: "kMDItemAcquisitionMake", .acquisitionModel: "kMDItemAcquisitionModel",
        .latitude: "kMDItemLatitude", .longitude: "kMDItemLongitude", .userTags: "kMDItemUserTags", .comment: "kMDItemFinderComment",
        .starRating: "kMDItemStarRating", .whereFroms: "kMDItemWhereFroms", .path: "kMDItemPath",
    ]

    /// The next query: one to four conditions joined, negated and grouped at random.
    mutating func next() -> String {
        expression(depth: 0)
    }

    private mutating func expression(depth: Int) -> String {
        let roll = random.next(10)
        if depth < 3 && roll < 2 {
            return "(" + expression(depth: depth + 1) + (random.next(2) == 0 ? " && " : " || ") + expression(depth: depth + 1) + ")"
        }
        if depth < 3 && roll == 2 { return "!" + (random.next(2) == 0 ? condition() : "(" + expression(depth: depth + 1) + ")") }
        if depth < 3 && roll == 3 { return expression(depth: depth + 1) + " && " + expression(depth: depth + 1) }
        if depth < 3 && roll == 4 { return expression(depth: depth + 1) + " || " + expression(depth: depth + 1) }
        return condition()
    }

    private mutating func pick<T>(_ list: [T]) -> T { list[random.next(list.count)] }

    private mutating func name(of attribute: QueryAttribute) -> String {
        attributesUsed.insert(attribute)
        if let alias = Self.aliases[attribute], random.next(3) == 0 { return alias }
        return attribute.rawValue
    }

    private mutating func condition() -> String {
        switch random.next(10) {
        case 0..<6: textCondition()
        case 6, 7: numberCondition()
        default: dateCondition()
        }
    }

    /// The values an attribute has among the items (lists flattened).
    private func values(of attribute: QueryAttribute) -> [String] {
        items.flatMap { item -> [String] in
            let attributes = item.attributeSet
            switch attribute {
            case .displayName: return attributes.displayName.map { [$0] } ?? []
            case .title: return attributes.title.map { [$0] } ?? []
            case .authors: return attributes.authors
            case .contentType: return attributes.contentType.map { [$0] } ?? []
            case .contentTypeTree: return attributes.contentTypeTree
            case .contentDescription: return attributes.contentDescription.map { [$0] } ?? []
            case .keywords: return attributes.keywords
            case .textContent: return attributes.textContent.map { [$0] } ?? []
            case .acquisitionMake: return attributes.acquisitionMake.map { [$0] } ?? []
            case .acquisitionModel: return attributes.acquisitionModel.map { [$0] } ?? []
            case .userTags: return attributes.userTags
            case .comment: return attributes.comment.map { [$0] } ?? []
            case .whereFroms: return attributes.whereFroms
            case .path: return [String(decoding: item.uniqueIdentifier.bytes, as: UTF8.self)]
            case .domain: return [item.domainIdentifier]
            default: return [attributes.displayName, attributes.title, attributes.contentDescription].compactMap { $0 } + attributes.keywords
            }
        }
    }

    private mutating func textCondition() -> String {
        let attribute = pick(Self.textAttributes)
        let known = values(of: attribute)
        var value = known.isEmpty ? "nothing" : pick(known)
        // A word of it, or two consecutive words, or the whole value.
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "." }).map(String.init)
        switch random.next(4) {
        case 0 where !words.isEmpty: value = pick(words)
        case 1 where words.count > 1:
            let start = random.next(words.count - 1)
            value = words[start] + " " + words[start + 1]
        default: break
        }
        // Case and marks changed, so that `c` and `d` decide.
        switch random.next(5) {
        case 0: value = value.uppercased()
        case 1: value = value.lowercased()
        case 2: value = value.applyingTransform(.stripDiacritics, reverse: false) ?? value
        default: break
        }
        // Wildcards: at the end, the start, both, inside.
        var characters = Array(value)
        switch random.next(6) {
        case 0 where characters.count > 2: characters = Array(characters.prefix(max(1, characters.count / 2))) + ["*"]
        case 1 where characters.count > 2: characters = ["*"] + Array(characters.suffix(max(1, characters.count / 2)))
        case 2 where characters.count > 3: characters = ["*"] + Array(characters[1..<(characters.count - 1)]) + ["*"]
        case 3 where characters.count > 3: characters[characters.count / 2] = "*"
        default: break
        }
        value = String(characters)
        var op = attribute == .anyText ? pick(["==", "!="]) : pick(["==", "==", "==", "!=", "<", ">", "<=", ">="])
        operatorsUsed.insert(op)
        if random.next(8) == 0, !value.contains("'") {
            // An exact whole value: no wildcard, no modifier.
            return "\(name(of: attribute)) \(op) '\(value.replacingOccurrences(of: "*", with: ""))'"
        }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let modifiers = String("cdwt".filter { _ in random.next(2) == 0 })
        modifiersUsed.insert(modifiers)
        if random.next(10) == 0, !modifiers.isEmpty, op != "==" || random.next(2) == 0 {
            // The legacy form `==[cd]`.
            op += "[\(modifiers)]"
            return "\(name(of: attribute)) \(op) \"\(escaped)\""
        }
        return "\(name(of: attribute)) \(op) \"\(escaped)\"\(modifiers)"
    }

    private mutating func numberCondition() -> String {
        let attribute = pick(Self.numberAttributes)
        let known: [Double] = items.compactMap { item in
            let attributes = item.attributeSet
            switch attribute {
            case .size: return attributes.size.map(Double.init)
            case .pixelWidth: return attributes.pixelWidth.map(Double.init)
            case .pixelHeight: return attributes.pixelHeight.map(Double.init)
            case .pageCount: return attributes.pageCount.map(Double.init)
            case .latitude: return attributes.latitude
            case .longitude: return attributes.longitude
            default: return attributes.starRating
            }
        }
        let base = known.isEmpty ? 0 : pick(known)
        let value = base + pick([0, 0, 1, -1, 0.5, -0.25, 1000])
        let text = value == value.rounded() && random.next(2) == 0 ? String(Int(value)) : String(value)
        if random.next(8) == 0 {
            let high = value + pick([0, 1, 10, 1_000_000])
            return "InRange(\(name(of: attribute)), \(text), \(high))"
        }
        let op = pick(["==", "!=", "<", ">", "<=", ">="])
        operatorsUsed.insert(op)
        return "\(name(of: attribute)) \(op) \(text)"
    }

    private mutating func dateCondition() -> String {
        let attribute = pick(Self.dateAttributes)
        func value(_ generator: inout QueryGenerator) -> String {
            switch generator.random.next(4) {
            case 0:
                let period = generator.pick(["now", "today", "yesterday", "this_week", "this_month", "this_year"])
                let offset = generator.pick(["", "(-1)", "(1)", "(-7)", "(-2)", "(-400)", "(+3)"])
                return "$time.\(period)\(offset)"
            case 1:
                let known = generator.items.compactMap { $0.attributeSet.contentModificationDate }
                let date = known.isEmpty ? QueryFixture.now : generator.pick(known)
                return "$time.iso(\(date.addingTimeInterval(generator.pick([0, -1, 1, 3600])).formatted(.iso8601)))"
            case 2:
                return "$time.iso(" + generator.pick(["2025-06-18", "2025-06-17", "2024-05-14", "2025-06-18T10:00:00+02:00"]) + ")"
            default:
                return String(Int(QueryFixture.now.timeIntervalSince1970) + generator.pick([0, -86_400, -3_600, 7_200]))
            }
        }
        if random.next(6) == 0 {
            return "InRange(\(name(of: attribute)), \(value(&self)), \(value(&self)))"
        }
        let op = pick(["==", "!=", "<", ">", "<=", ">="])
        operatorsUsed.insert(op)
        return "\(name(of: attribute)) \(op) \(value(&self))"
    }
}
