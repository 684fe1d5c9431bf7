import Searchlight

/// Step ② of the write path: the index's side of a walk's comparison with the disk.
///
/// Reads a domain's identifiers and change stamps in byte order, a page at a time, so that a
/// walk can be merged with the index in constant memory.
struct IndexStampCursor {
    typealias Entry = (identifier: ItemIdentifier, changeStamp: [UInt8]?)

    private let index: any FileIndexWriter
    private let domain: String
    private let upperBound: ItemIdentifier?
    private var page: [Entry] = []
    private var position = 0
    private var exhausted = false
    private static let pageSize = 2048

    /// A cursor over every identifier of `domain` below `prefix` (all of them when empty).
    init(index: any FileIndexWriter, domain: String, below prefix: ItemIdentifier) throws {
        self.index = index
        self.domain = domain
        if prefix.bytes.isEmpty {
            upperBound = nil
            try load(after: nil)
        } else {
            // The lower bound is never an identifier itself, so "after it" means "from it".
            let (lower, upper) = prefix.descendantBounds
            upperBound = upper
            try load(after: lower)
        }
    }

    /// A cursor over entries already read (in byte order), such as a ``PendingIndexView``'s.
    init(index: any FileIndexWriter, domain: String, entries: [Entry]) {
        self.index = index
        self.domain = domain
        upperBound = nil
        page = entries
        exhausted = true
    }

    /// The next entry, without consuming it.
    mutating func peek() throws -> Entry? {
        if position == page.count {
            guard !exhausted, let last = page.last else { return nil }
            try load(after: last.identifier)
            if page.isEmpty { return nil }
        }
        return page[position]
    }

    mutating func advance() { position += 1 }

    private mutating func load(after identifier: ItemIdentifier?) throws {
        page = try index.changeStamps(domain: domain, after: identifier, before: upperBound, limit: Self.pageSize)
        position = 0
        exhausted = page.count < Self.pageSize
    }
}
