// How an ``ExtractedDocument`` travels in an ``ExtractionResponse``: its fields in
// declaration order; an optional is a presence byte (0 or 1) then the value; a string is
// a byte string; a list is a u32 count then its strings; an integer is an i64, a date or
// a coordinate the bit pattern of a Double as u64.

extension ExtractedDocument {
    func encode(into writer: inout WireWriter) {
        writer.appendOptional(title)
        writer.appendList(authors)
        writer.appendList(keywords)
        writer.appendOptional(subject)
        writer.appendString(text)
        writer.append(UInt8(isTextTruncated ? 1 : 0))
        writer.appendOptional(pageCount)
        writer.appendOptional(creationDate)
        writer.appendOptional(modificationDate)
        writer.appendOptional(pixelWidth)
        writer.appendOptional(pixelHeight)
        writer.appendOptional(acquisitionMake)
        writer.appendOptional(acquisitionModel)
        writer.appendOptional(latitude)
        writer.appendOptional(longitude)
        writer.appendOptional(scannedPageCount)
        writer.appendOptional(recognizedPageCount)
    }

    init(from reader: inout WireReader) throws(ExtractionProtocolError) {
        self.init()
        title = try reader.readOptionalString()
        authors = try reader.readList()
        keywords = try reader.readList()
        subject = try reader.readOptionalString()
        text = try reader.readString()
        isTextTruncated = try reader.read(UInt8.self) != 0
        pageCount = try reader.readOptionalInt()
        creationDate = try reader.readOptionalDouble()
        modificationDate = try reader.readOptionalDouble()
        pixelWidth = try reader.readOptionalInt()
        pixelHeight = try reader.readOptionalInt()
        acquisitionMake = try reader.readOptionalString()
        acquisitionModel = try reader.readOptionalString()
        latitude = try reader.readOptionalDouble()
        longitude = try reader.readOptionalDouble()
        scannedPageCount = try reader.readOptionalInt()
        recognizedPageCount = try reader.readOptionalInt()
    }
}

extension WireWriter {
    mutating func appendOptional(_ value: String?) {
        append(UInt8(value == nil ? 0 : 1))
        if let value { appendString(value) }
    }

    mutating func appendOptional(_ value: Int?) {
        append(UInt8(value == nil ? 0 : 1))
        if let value { append(Int64(value)) }
    }

    mutating func appendOptional(_ value: Double?) {
        append(UInt8(value == nil ? 0 : 1))
        if let value { append(value.bitPattern) }
    }

    mutating func appendList(_ values: [String]) {
        append(UInt32(values.count))
        for value in values { appendString(value) }
    }
}

extension WireReader {
    /// Reads the presence byte of an optional.
    mutating func readPresence() throws(ExtractionProtocolError) -> Bool {
        switch try read(UInt8.self) {
        case 0: return false
        case 1: return true
        case let other: throw ExtractionProtocolError(.malformed, "bad presence byte \(other)")
        }
    }

    mutating func readOptionalString() throws(ExtractionProtocolError) -> String? {
        try readPresence() ? try readString() : nil
    }

    mutating func readOptionalInt() throws(ExtractionProtocolError) -> Int? {
        try readPresence() ? Int(truncatingIfNeeded: try read(Int64.self)) : nil
    }

    mutating func readOptionalDouble() throws(ExtractionProtocolError) -> Double? {
        try readPresence() ? Double(bitPattern: try read(UInt64.self)) : nil
    }

    mutating func readList() throws(ExtractionProtocolError) -> [String] {
        let count = Int(try read(UInt32.self))
        // Each string takes at least its 4-byte length: a count beyond that is a lie.
        guard count <= (bytes.count - offset) / 4 else { throw ExtractionProtocolError(.truncated, "list of \(count) strings exceeds the payload") }
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try readString()) }
        return values
    }
}
