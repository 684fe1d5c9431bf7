/// A reader of protobuf's wire format (developers.google.com/protocol-buffers/docs/encoding):
/// fields by number and wire type, without a schema. Enough to pick known fields out of
/// messages whose layout was learned elsewhere (iWork's `.iwa` parts).
struct ProtobufReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { bytes.isEmpty }

    /// One field's value.
    enum Value {
        case varint(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed
    }

    struct Field {
        var number: UInt64
        var value: Value
    }

    /// A base-128 varint, or nil when the bytes end first or it runs past 10 bytes.
    mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = bytes.first, shift < 64 {
            bytes.removeFirst()
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// The next `count` bytes, or nil when fewer are left.
    mutating func bytes(count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count else { return nil }
        let result = bytes.prefix(count)
        bytes.removeFirst(count)
        return result
    }

    /// The next field, or nil at the end or on malformed bytes (groups are not read).
    mutating func field() -> Field? {
        guard let key = varint() else { return nil }
        let number = key >> 3
        switch key & 7 {
        case 0:
            return varint().map { Field(number: number, value: .varint($0)) }
        case 1:
            return bytes(count: 8).map { _ in Field(number: number, value: .fixed) }
        case 2:
            guard let length = varint(), let value = bytes(count: Int(clamping: length)) else { return nil }
            return Field(number: number, value: .bytes(value))
        case 5:
            return bytes(count: 4).map { _ in Field(number: number, value: .fixed) }
        default:
            return nil
        }
    }

    /// The fields of `message`, up to the first malformed one.
    static func fields(_ message: ArraySlice<UInt8>) -> [Field] {
        var reader = ProtobufReader(message)
        var fields: [Field] = []
        while !reader.isAtEnd, let field = reader.field() { fields.append(field) }
        return fields
    }
}
