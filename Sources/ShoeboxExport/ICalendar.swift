public import Foundation
public import ShoeboxCore

/// An iCalendar file (RFC 5545) of all-day events with alarms: what `deadlines.ics` in a folder's zip is. Lines end in
/// CRLF and are folded at 75 octets (never inside a UTF-8 character); text is escaped. The same events give the same
/// bytes, and an event keeps its UID across exports, so a calendar that subscribed updates it instead of adding another.
public enum ICalendar {
    public struct Event: Sendable, Hashable {
        /// Stable across exports: the same deadline of the same document has the same UID.
        public var uid: String
        public var day: CalendarDay
        public var summary: String
        public var description: String
        /// When the event last changed, UTC (`DTSTAMP`): with the same UID, a later stamp tells a calendar to update.
        public var stamp: Date
        /// An alarm this many days before the day (at its start), each.
        public var alarmDaysBefore: [Int]

        public init(uid: String, day: CalendarDay, summary: String, description: String, stamp: Date, alarmDaysBefore: [Int] = [7, 3, 1]) {
            self.uid = uid
            self.day = day
            self.summary = summary
            self.description = description
            self.stamp = stamp
            self.alarmDaysBefore = alarmDaysBefore
        }
    }

    static let productID = "-//Shoebox//Deadlines//EN"
    /// RFC 5545 3.1: lines of at most 75 octets, excluding the line break.
    static let lineOctets = 75

    /// The calendar: `name` as its display name (`X-WR-CALNAME`), the events in the given order.
    public static func write(_ events: [Event], name: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "CALSCALE:GREGORIAN", "X-WR-CALNAME:\(escape(name))"]
        for e in events {
            lines += [
                "BEGIN:VEVENT", "UID:\(escape(e.uid))", "DTSTAMP:\(utc(e.stamp))", "DTSTART;VALUE=DATE:\(basic(e.day))",
                "DTEND;VALUE=DATE:\(basic(e.day.adding(days: 1)))", "SUMMARY:\(escape(e.summary))", "DESCRIPTION:\(escape(e.description))",
                "TRANSP:TRANSPARENT"
            ]
            for days in e.alarmDaysBefore.sorted(by: >) {
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escape(e.summary))", "TRIGGER:-P\(days)D", "END:VALARM"
                ]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined()
    }

    /// TEXT values (RFC 5545 3.3.11): backslash, semicolon and comma escaped, line breaks as `\n`.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default:
                // Other control characters have no place in a calendar's text.
                if c.value < 0x20 || c.value == 0x7F { continue }
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// One content line, folded: at most 75 octets a line, each continuation starting with a space, never splitting a
    /// UTF-8 character; every line ends in CRLF.
    static func fold(_ line: String) -> String {
        var out = ""
        var current = ""
        var octets = 0
        for ch in line {
            let n = String(ch).utf8.count
            if octets + n > lineOctets {
                out += current + "\r\n"
                current = " "
                octets = 1
            }
            current.append(ch)
            octets += n
        }
        return out + current + "\r\n"
    }

    static func basic(_ day: CalendarDay) -> String { day.iso.replacingOccurrences(of: "-", with: "") }

    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04ld%02ld%02ldT%02ld%02ld%02ldZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
