/// What items of one kind share: their content type, description and the keywords they have
/// beyond their name's words (``StoredText/keywords``), which a file takes from its type and
/// description. Stored once in `content_kind`, which items reference by id, because a few
/// hundred kinds describe most of a disk.
struct ContentKind: Hashable {
    var type: String?
    var description: String?
    /// Keywords joined by ``SearchableIndex/keywordSeparator``.
    var keywords: String?

    /// Kinds are equal when their bytes are, as in the database (Swift's string equality
    /// would equate canonically equivalent texts and give one of them the other's row).
    static func == (left: ContentKind, right: ContentKind) -> Bool {
        sameBytes(left.type, right.type) && sameBytes(left.description, right.description)
            && sameBytes(left.keywords, right.keywords)
    }

    func hash(into hasher: inout Hasher) {
        for value in [type, description, keywords] {
            hasher.combine(value == nil)
            if var value {
                // The bytes at once: a kind is hashed for every item a scan writes.
                value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            }
            hasher.combine(0xFF as UInt8)
        }
    }

    static func sameBytes(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case let (left?, right?): left.utf8.elementsEqual(right.utf8)
        default: false
        }
    }

    /// A 64-bit FNV-1a hash of the type and description, the same in every process: the column
    /// that finds a kind's rows. Indexing the values themselves would cost as much as the rows,
    /// and some descriptions (libmagic's, with sizes and dimensions in them) are nearly unique.
    /// Since v7 the keywords are left out, so that the rows of one type and description, whose
    /// keywords may start one another's (``StoredText/kindCharacters``), are found together.
    var digest: Int64 { Self.digest(type: type, description: description) }

    static func digest(type: String?, description: String?) -> Int64 {
        var hash = FNV1a()
        for value in [type, description] {
            // A tag before each value keeps `nil` apart from "" and values from one another.
            hash.add(value == nil ? 0 : 1)
            if let value { hash.add(value.utf8) }
            hash.add(0xFF)
        }
        return Int64(bitPattern: hash.value)
    }
}
