import Foundation

extension QueryExpression {
    /// Whether `item` satisfies the expression, evaluated in Swift with the same rules as the
    /// SQL the index runs.
    ///
    /// For an item in memory: a result to check again, an item about to be written, a test of
    /// the query language against the SQL. `textContent` is tested only when the item carries
    /// its text (an item read by ``SearchableIndex/item(_:domain:)``, not one of a list). A
    /// number, date or text attribute the item lacks fails every test of it, `!=` included;
    /// `!` of such a test holds.
    ///
    /// ```swift
    /// let large = try QueryExpression(parsing: "size > 1000000")
    /// let kept = items.filter { large.matches($0) }
    /// ```
    ///
    /// Pure: it reads only its arguments, so it can run on any thread. Its cost
    /// is that of the predicates it reaches (`&&` and `||` stop at the first operand that
    /// decides); a word match on a long text folds and splits that text each time.
    ///
    /// - Parameters:
    ///   - item: The item to test.
    ///   - now: The instant `$time` values are relative to.
    ///   - calendar: The calendar that defines days, weeks, months and years.
    /// - Returns: Whether the item matches.
    public func matches(_ item: IndexedItem, now: Date = Date(), calendar: Calendar = .current) -> Bool {
        switch self {
        case .predicate(let predicate): !predicate.matchingAttributes(of: item, now: now, calendar: calendar).isEmpty
        case .and(let operands): operands.allSatisfy { $0.matches(item, now: now, calendar: calendar) }
        case .or(let operands): operands.contains { $0.matches(item, now: now, calendar: calendar) }
        case .not(let operand): !operand.matches(item, now: now, calendar: calendar)
        }
    }

    /// The predicates that hold for `item` and count toward its match (those not under a `!`),
    /// with the attributes that satisfied each: why a result was returned.
    ///
    /// ```swift
    /// let expression = try QueryExpression(parsing: #"* == "canon"cdw"#)
    /// expression.explanation(for: item) // [* == "canon"cdw (title, keywords)]
    /// ```
    ///
    /// Unlike ``matches(_:now:calendar:)``, every operand of `&&` and `||` is evaluated, so that
    /// each predicate that held is listed, not only the first. The explanation does not check
    /// that the item matches: for an item that does not, it lists the predicates that held all
    /// the same.
    ///
    /// - Parameters:
    ///   - item: A result of the query.
    ///   - now: The time `$time` dates are read against, as for the query.
    ///   - calendar: The calendar whose periods bound them.
    /// - Returns: The predicates that held, in the query's order, each with the attributes
    ///   that satisfied it; a predicate under `!` is never listed.
    public func explanation(for item: IndexedItem, now: Date = Date(), calendar: Calendar = .current) -> [QueryMatch] {
        switch self {
        case .predicate(let predicate):
            let attributes = predicate.matchingAttributes(of: item, now: now, calendar: calendar)
            return attributes.isEmpty ? [] : [QueryMatch(predicate: predicate, attributes: attributes)]
        case .and(let operands), .or(let operands):
            return operands.flatMap { $0.explanation(for: item, now: now, calendar: calendar) }
        case .not:
            return []
        }
    }
}

extension QueryPredicate {
    /// The attributes of `item` that satisfy the predicate: empty when it does not hold.
    ///
    /// `*` is tried on each text attribute (``QueryAttribute/textAttributes``); `* != "x"`
    /// holds, as `*`, when no text attribute equals `x`.
    ///
    /// - Parameters:
    ///   - item: The item to test.
    ///   - now: The instant `$time` values are relative to.
    ///   - calendar: The calendar that defines their periods.
    /// - Returns: The attribute that satisfied the predicate; for `*`, each text attribute that
    ///   equals the value (or `*` itself for a `!=` that holds); empty when it does not hold.
    func matchingAttributes(of item: IndexedItem, now: Date, calendar: Calendar) -> [QueryAttribute] {
        if attribute == .anyText {
            guard case .comparison(let op, let value) = test, let (pattern, modifiers) = value.stringPattern else { return [] }
            let matching = QueryAttribute.textAttributes.filter {
                QueryPredicate(attribute: $0, test: .comparison(.equal, .string(pattern, modifiers)))
                    .holds(for: item, now: now, calendar: calendar)
            }
            if op == .notEqual { return matching.isEmpty ? [.anyText] : [] }
            return matching
        }
        return holds(for: item, now: now, calendar: calendar) ? [attribute] : []
    }

    /// Whether the predicate holds for `item`'s one attribute (not `*`).
    ///
    /// An attribute the item lacks fails, whatever the operator.
    private func holds(for item: IndexedItem, now: Date, calendar: Calendar) -> Bool {
        let attributes = item.item.attributeSet
        switch attribute.kind {
        case .number, .date:
            let number: Double? = switch attribute {
            case .size: attributes.size.map(Double.init)
            case .pixelWidth: attributes.pixelWidth.map(Double.init)
            case .pixelHeight: attributes.pixelHeight.map(Double.init)
            case .pageCount: attributes.pageCount.map(Double.init)
            case .latitude: attributes.latitude
            case .longitude: attributes.longitude
            case .starRating: attributes.starRating
            case .contentModificationDate: attributes.contentModificationDate?.timeIntervalSince1970
            case .contentCreationDate: attributes.contentCreationDate?.timeIntervalSince1970
            default: nil
            }
            guard let number else { return false }
            return holds(number: number, now: now, calendar: calendar)
        case .text, .textList, .identifier:
            switch test {
            case .comparison(let op, let value):
                return holds(string: item, op, value)
            case .inRange(let low, let high):
                return holds(string: item, .greaterOrEqual, low) && holds(string: item, .lessOrEqual, high)
            }
        }
    }

    /// Whether a text, list or identifier attribute of `item` compares with `value` as `op`
    /// says (``QueryTextMatcher``: patterns, modifiers, any element of a list).
    ///
    /// A number or date value fails: the parser gives text attributes only strings. The path is
    /// compared as the identifier's bytes, so a name that is not UTF-8 still matches itself.
    private func holds(string item: IndexedItem, _ op: QueryPredicate.Operator, _ value: QueryValue) -> Bool {
        guard let (pattern, modifiers) = value.stringPattern else { return false }
        let attributes = item.item.attributeSet
        let matcher = QueryTextMatcher(op: op, pattern: pattern, modifiers: modifiers,
                                       isList: attribute.kind == .textList, isText: attribute == .textContent)
        let text: String?
        switch attribute {
        case .displayName: text = attributes.displayName
        case .title: text = attributes.title
        case .contentType: text = attributes.contentType
        case .contentDescription: text = attributes.contentDescription
        case .textContent: text = attributes.textContent
        case .acquisitionMake: text = attributes.acquisitionMake
        case .acquisitionModel: text = attributes.acquisitionModel
        case .comment: text = attributes.comment
        case .userTags: return matcher.matches(elements: attributes.userTags)
        case .whereFroms: return matcher.matches(elements: attributes.whereFroms)
        case .authors: return matcher.matches(elements: attributes.authors)
        case .domain: text = item.item.domainIdentifier
        case .keywords: return matcher.matches(elements: attributes.keywords)
        case .contentTypeTree: return matcher.matches(elements: attributes.contentTypeTree)
        case .path: return matcher.matches(bytes: item.item.uniqueIdentifier.bytes)
        default: text = nil
        }
        return text.map(matcher.matches) ?? false
    }

    /// Whether a number or date (seconds since 1970) passes the test: a `$time` period is
    /// `start..<end`, so `==` means within it and the ordering operators compare with its start.
    ///
    /// `InRange` holds from the low bound's start to the high bound's end: `InRange(date,
    /// $time.today(-7), $time.today)` includes all of today.
    private func holds(number: Double, now: Date, calendar: Calendar) -> Bool {
        func bounds(_ value: QueryValue) -> (start: Double, end: Double)? {
            switch value {
            case .number(let number): (number, number)
            case .date(let date): date.interval(now: now, calendar: calendar)
            case .string, .exactString: nil
            }
        }
        switch test {
        case .comparison(let op, let value):
            guard let (start, end) = bounds(value) else { return false }
            let isInstant = start == end
            switch op {
            case .equal: return isInstant ? number == start : number >= start && number < end
            case .notEqual: return isInstant ? number != start : number < start || number >= end
            case .less: return number < start
            case .lessOrEqual: return number <= start
            case .greater: return number > start
            case .greaterOrEqual: return number >= start
            }
        case .inRange(let low, let high):
            guard let low = bounds(low), let high = bounds(high) else { return false }
            return number >= low.start && (high.start == high.end ? number <= high.start : number < high.end)
        }
    }
}
