import Foundation

/// The dates of Elasticsearch's default date format (`strict_date_optional_time||epoch_millis`)
/// in the part Samba writes: `2018-10-01T10:00:00Z`, also `2018-10-01`, fractions of a second,
/// `±hh:mm` offsets, and milliseconds since 1970.
enum ElasticsearchDate {
    /// The instant, and how long the written precision lasts (a day, a second, a millisecond).
    /// - Throws: ``ElasticsearchError`` (400) for anything else (date math such as `now-1d`).
    static func parse(_ text: String, field: ElasticsearchField) throws(ElasticsearchError) -> (date: Date, precision: TimeInterval) {
        if let millis = Int64(text) { return (Date(timeIntervalSince1970: Double(millis) / 1000), 0.001) }
        let failure = ElasticsearchError.query("failed to parse date field [\(text)] of [\(field.rawValue)] "
                                               + "with format [strict_date_optional_time||epoch_millis]")
        let scalars = Array(text.unicodeScalars)
        var position = 0
        func number(_ digits: Int) throws(ElasticsearchError) -> Int {
            guard position + digits <= scalars.count else { throw failure }
            var value = 0
            for scalar in scalars[position..<position + digits] {
                guard let digit = Int(String(scalar)) else { throw failure }
                value = value * 10 + digit
            }
            position += digits
            return value
        }
        func expect(_ character: Unicode.Scalar) throws(ElasticsearchError) {
            guard position < scalars.count, scalars[position] == character else { throw failure }
            position += 1
        }
        var components = DateComponents()
        components.year = try number(4)
        try expect("-")
        components.month = try number(2)
        try expect("-")
        components.day = try number(2)
        var precision: TimeInterval = 86_400
        var fraction = 0.0
        var offset = 0
        if position < scalars.count {
            try expect("T")
            components.hour = try number(2)
            try expect(":")
            components.minute = try number(2)
            precision = 60
            if position < scalars.count, scalars[position] == ":" {
                position += 1
                components.second = try number(2)
                precision = 1
                if position < scalars.count, scalars[position] == "." {
                    position += 1
                    let start = position
                    while position < scalars.count, scalars[position].properties.numericType != nil { position += 1 }
                    guard position > start, let value = Double("0." + String(String.UnicodeScalarView(scalars[start..<position]))) else {
                        throw failure
                    }
                    fraction = value
                    precision = 0.001
                }
            }
            if position < scalars.count {
                if scalars[position] == "Z" {
                    position += 1
                } else {
                    let sign = scalars[position] == "-" ? -1 : 1
                    guard scalars[position] == "+" || scalars[position] == "-" else { throw failure }
                    position += 1
                    let hours = try number(2)
                    try expect(":")
                    offset = sign * (hours * 3600 + (try number(2)) * 60)
                }
            }
        }
        guard position == scalars.count else { throw failure }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == components.day else {
            throw failure
        }
        return (date.addingTimeInterval(fraction - Double(offset)), precision)
    }
}
