/// A size in bytes as people read it, precise enough that two sizes in one sentence can be told apart:
/// "812 bytes", "10.2 KiB", "3.75 MiB", "2.00 GiB" ("0 MiB … limit of 0 MiB" said nothing).
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB"]
        guard bytes.magnitude >= 1024 else { return "\(bytes) byte\(bytes.magnitude == 1 ? "" : "s")" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value.magnitude >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // Three significant digits: 10.2 KiB, 3.75 MiB, 512 MiB.
        let digits = value.magnitude >= 100 ? 0 : value.magnitude >= 10 ? 1 : 2
        return fixed(value, digits) + " " + units[unit]
    }

    /// `value` with `digits` decimals, rounded half away from zero, without Foundation's formatting.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        let whole = Int64(scaled / scale)
        var text = (value < 0 ? "-" : "") + String(whole)
        if digits > 0 {
            var fraction = String(Int64(scaled) - whole * Int64(scale))
            while fraction.count < digits { fraction = "0" + fraction }
            text += "." + fraction
        }
        return text
    }
}
