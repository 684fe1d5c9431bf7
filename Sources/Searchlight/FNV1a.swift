/// FNV-1a, 64 bits: a fast hash of bytes that is the same in every process and version (not
/// Swift's `Hasher`, which is seeded per process). What it names is stored or shared: content
/// kinds' digests in the index, a watch lock's file name, a thumbnail's `ETag`; and it spreads
/// the spelling candidates of ``SpellingList``. Not for anything an attacker chooses to collide.
package struct FNV1a {
    package var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable package init() {}

    @inlinable package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    @inlinable package mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// The hash of `bytes`.
    @inlinable package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.value
    }
}
