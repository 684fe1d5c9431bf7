import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// ``UnicodeNormalization`` calls CoreFoundation's normalizer directly, without Foundation's
/// `NSString` bridge: it must give exactly what Foundation's methods give, which every index
/// was folded with (``WordFolding``), on text of every script, the composed and compatibility
/// forms among it.
@Suite struct UnicodeNormalizationTests {
    static let blocks: [ClosedRange<UInt32>] = [
        0x20...0x2FF, 0x300...0x36F, 0x370...0x4FF, 0x590...0x6FF, 0x900...0xDFF, 0xE00...0xEFF,
        0x1100...0x11FF, 0x1E00...0x1FFF, 0x2000...0x33FF, 0x3040...0x30FF, 0x4E00...0x4FFF,
        0xAC00...0xD7A3, 0xF900...0xFB4F, 0xFE00...0xFFEF, 0x1D400...0x1D7FF, 0x1F100...0x1F2FF,
        0x10000...0x10FFFF, 0x0...0xFFFF,
    ]

    @Test func itGivesWhatFoundationGives() {
        var generator = SeededGenerator(seed: 77)
        var compared = 0
        for round in 0..<6_000 {
            let block = Self.blocks[round % Self.blocks.count]
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                let value = block.lowerBound + UInt32(generator.next() % UInt64(block.count))
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            let text = String(scalars)
            #expect(Array(UnicodeNormalization.normalized(text, .KD).unicodeScalars)
                == Array(text.decomposedStringWithCompatibilityMapping.unicodeScalars), "\(text.unicodeScalars.map(\.value))")
            #expect(Array(UnicodeNormalization.normalized(text, .C).unicodeScalars)
                == Array(text.precomposedStringWithCanonicalMapping.unicodeScalars), "\(text.unicodeScalars.map(\.value))")
            #expect(Array(UnicodeNormalization.normalized(text, .D).unicodeScalars)
                == Array(text.decomposedStringWithCanonicalMapping.unicodeScalars), "\(text.unicodeScalars.map(\.value))")
            compared += 1
        }
        #expect(compared == 6_000)
        #expect(UnicodeNormalization.normalized("", .KD) == "")
        #expect(UnicodeNormalization.normalized("ﬁ Ａ é 한", .KD) == "fi A e\u{301} \u{1112}\u{1161}\u{11AB}")
        #expect(UnicodeNormalization.normalized("e\u{301}\u{1112}\u{1161}\u{11AB}", .C) == "é한")
    }
}
