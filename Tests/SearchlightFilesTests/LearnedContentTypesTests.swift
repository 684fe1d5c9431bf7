import Testing
@testable import SearchlightFiles

@Suite("Learned content types")
struct LearnedContentTypesTests {
    @Test func aShapeLeavesOutDigits() {
        #expect(LearnedContentTypes.shape(of: "PNG image data, 800 x 600, 8-bit/color RGBA")
            == LearnedContentTypes.shape(of: "PNG image data, 16 x 16, 16-bit/color RGBA"))
        #expect(LearnedContentTypes.shape(of: "ASCII text, with very long lines (1234)")
            == "ASCII text, with very long lines (#)")
        #expect(LearnedContentTypes.shape(of: "ISO Media, MPEG v4 system, 3GPP")
            != LearnedContentTypes.shape(of: "ISO Media, MPEG v4 system, 3GPP2"))
        #expect(LearnedContentTypes.shape(of: "Dvořák 2024") == "Dvořák #")
    }

    /// Which of a shape's files get the learned type (`true`) rather than a MIME pass.
    static func answered(files: Int, in learned: LearnedContentTypes, shape: String, type: String) -> [Bool] {
        (1...files).map { _ in
            if learned.type(forShape: shape) != nil { return true }
            learned.learn(type, forShape: shape)
            return false
        }
    }

    @Test func aLearnedTypeIsCheckedAtTheShapesTwoFourEightFiles() {
        let learned = LearnedContentTypes()
        let answered = Self.answered(files: 17, in: learned, shape: "PNG image data, # x #", type: "image/png")
        let passes = answered.indices.filter { !answered[$0] }.map { $0 + 1 }
        #expect(passes == [1, 2, 4, 8, 16])
        #expect(learned.count == 1)
    }

    @Test func aShapeSeenWithTwoTypesIsNeverGuessedAgain() {
        let learned = LearnedContentTypes()
        let shape = "Python script, ASCII text executable"
        #expect(learned.type(forShape: shape) == nil)
        learned.learn("text/x-script.python", forShape: shape)
        #expect(learned.type(forShape: shape) == nil, "the second file checks")
        learned.learn("text/plain", forShape: shape)
        for _ in 0..<20 { #expect(learned.type(forShape: shape) == nil) }
    }

    @Test func aFullTableStartsOver() {
        let learned = LearnedContentTypes()
        for number in 0..<LearnedContentTypes.limit { learned.learn("text/plain", forShape: "shape \(Character(UnicodeScalar(0x4E00 + number)!))") }
        #expect(learned.count == LearnedContentTypes.limit)
        learned.learn("text/plain", forShape: "one more")
        #expect(learned.count == 1)
    }
}
