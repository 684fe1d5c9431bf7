/// Dates as documents write them, turned into seconds since 1970-01-01 UTC.
enum DocumentDate {
    /// Parses W3CDTF / ISO 8601 (`2024-05-01`, `2024-05-01T10:20:30Z`, `…30.5+02:00`) and
    /// EXIF's `2024:05:01 10:20:30`. A time without a zone is taken as UTC.
    static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8.drop(while: { $0 == 0x20 }))
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func skip(_ allowed: Set<UInt8>) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip([0x2D, 0x3A]), let month = number(2), skip([0x2D, 0x3A]), let day = number(2),
              (1...12).contains(month), (1...31).contains(day), year > 0
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        guard skip([0x54, 0x20]) else { return seconds }
        guard let hour = number(2), skip([0x3A]), let minute = number(2), hour < 24, minute < 60 else { return seconds }
        seconds += Double(hour * 3600 + minute * 60)
        if skip([0x3A]), let second = number(2), second <= 60 {
            seconds += Double(second)
            if skip([0x2E, 0x2C]) {
                var scale = 0.1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    seconds += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
            }
        }
        if let sign = bytes[index...].first, sign == 0x2B || sign == 0x2D {
            index += 1
            if let hours = number(2) {
                _ = skip([0x3A])
                let minutes = number(2) ?? 0
                let offset = Double(hours * 3600 + minutes * 60)
                seconds += sign == 0x2B ? -offset : offset
            }
        }
        return seconds
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
