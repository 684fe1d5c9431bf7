import SearchlightTestSupport
import Testing
@testable import Searchlight

/// `TextPhrase.holds`, the phrase check of the results PostgreSQL finds, gives the answer of the
/// words it replaced (`CompoundWords.match(parts:in:)` on `NameTokenizer.words(in:)` of the
/// text): on written cases, then on generated texts mixing scripts, cases, digits, marks and
/// separators inside and outside ASCII.
@Suite("A phrase among a text's words")
struct TextPhraseTests {
    static func reference(_ parts: [String], in text: String) -> Bool {
        CompoundWords.match(parts: parts, in: NameTokenizer.words(in: text)).whole
    }

    @Test func writtenCases() {
        let text = "The Net-Present VALUE of HTMLParser v2 — Résumé, naïve café: la la land; ο φύλακας του Φάρου"
        for (parts, holds) in [
            (["net", "present", "value"], true),
            (["present", "net"], false),
            (["html", "parser", "v", "2"], true),
            (["value", "of"], true),
            (["valu", "of"], false),            // a prefix is not a whole word
            (["resume", "naive", "cafe"], true),  // folded across the non-ASCII runs
            (["2", "resume"], true),              // across "—"
            (["la", "land"], true),               // a part that repeats
            (["la", "la", "land"], true),
            (["la", "la", "la"], false),
            (["φύλακας", "του", "φάρου"], true),  // folded below, as typed words are
            (["cafe"], true),
            ([], false),
        ] {
            let parts = NameTokenizer.words(in: parts.joined(separator: " "))
            #expect(TextPhrase.holds(parts, in: text) == holds, "\(parts)")
            #expect(Self.reference(parts, in: text) == holds, "reference: \(parts)")
        }
    }

    /// The runs scanned (`NameTokenizer.firstRun`): every byte of 0–255 is a word's when it is
    /// an ASCII letter or digit or above 0x7F, and one run ends where another byte stands.
    @Test func runsAreLettersDigitsAndLongerCharacters() {
        for byte in 0...255 {
            let isWord = byte >= 0x80 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            let bytes: [UInt8] = [0x20, UInt8(byte), 0x20]
            let run = bytes.withUnsafeBufferPointer { buffer in NameTokenizer.firstRun(in: buffer) { range, _ in range } }
            #expect(run == (isWord ? 1..<2 : nil), "byte \(byte)")
        }
        let runs = Array("net-Present_value2 café".utf8).withUnsafeBufferPointer { buffer in
            var found: [String] = []
            _ = NameTokenizer.firstRun(in: buffer) { range, isASCII -> Bool? in
                found.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) + (isASCII ? "" : "*"))
                return nil
            }
            return found
        }
        #expect(runs == ["net", "Present", "value2", "café*"])
    }

    @Test func aPhraseOfMoreThanSixtyThreeWords() {
        let text = Array(repeating: "la", count: 80).joined(separator: " ") + " land"
        #expect(TextPhrase.holds(Array(repeating: "la", count: 70) + ["land"], in: text))
        #expect(!TextPhrase.holds(Array(repeating: "la", count: 90), in: text))
        #expect(TextPhrase.holds(Array(repeating: "la", count: 63), in: text))
    }

    @Test func onlyTheFirstBytesAreRead() {
        let text = String(repeating: "filler words ", count: 6_000) + "known phrase"
        #expect(!TextPhrase.holds(["known", "phrase"], in: text))
        #expect(TextPhrase.holds(["known", "phrase"], in: text, bytes: text.utf8.count))
        // A cut inside a character goes back to its start: "ééé…" cut at an odd byte.
        let accents = String(repeating: "é", count: 40) + " tail end"
        #expect(!TextPhrase.holds(["tail", "end"], in: accents, bytes: 81))
        #expect(TextPhrase.holds(["tail", "end"], in: accents, bytes: 89))
    }

    @Test func generatedTextsAgreeWithTheSplitWords() {
        var random = SeededGenerator(seed: 47)
        let pieces = ["alpha", "Beta", "GAMMA", "dEltA", "x86", "64", "d70", "HTMLParser", "testWORD", "2024q3",
                      "résumé", "Ελλάδα", "φάρου", "한국어", "日本語", "ไทย", "Straße", "e\u{301}lan", "\u{301}x",
                      "über", "naïve", "la", "la", "a", "b"]
        let separators = [" ", " ", " ", "-", "_", ".", ", ", "—", "’", "\u{200B}", "\n", "/", "\u{00A0}", ""]
        for round in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                text += pieces.randomElement(using: &random)! + separators.randomElement(using: &random)!
            }
            let words = NameTokenizer.words(in: text)
            var phrases: [[String]] = []
            if !words.isEmpty {
                for _ in 0..<4 {
                    let start = Int.random(in: 0..<words.count, using: &random)
                    let count = Int.random(in: 1...min(4, words.count - start), using: &random)
                    phrases.append(Array(words[start..<(start + count)]))
                }
            }
            for _ in 0..<4 {
                let taken = (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                phrases.append(NameTokenizer.words(in: taken.joined(separator: " ")))
            }
            for parts in phrases {
                #expect(TextPhrase.holds(parts, in: text) == Self.reference(parts, in: text),
                        "round \(round): \(parts) in \(text.debugDescription)")
            }
        }
    }
}
