import Foundation
import ShoeboxCore
internal import ShoeboxReading

/// Line items: the lines between the page's header and its totals that print an amount in the amount column, each with
/// its description (on its own line, or on the lines above when the amount line prints only numbers), its quantity and
/// unit price when the line proves them (quantity × unit price = amount), its tax code, and its kind (a discount, a
/// deposit, a voided article). The set is proven when its signed sum is a subtotal or total the page prints below it.
extension ReceiptParser {
    /// A line of the item block, read.
    struct ItemLine {
        let line: Line
        /// The amount in the amount column, if the line prints one.
        let amount: AmountReader.Found?
        /// Quantity and unit price the line prints ("2 x 1,19", "0,532 kg x 2,99", "@ 28.00"), unproven yet.
        let quantity: String?
        let unitPrice: Int64?
        let unitPriceText: String?
        let unit: String?
        /// The description the line prints, without its numbers; empty when it prints none.
        let description: String
        let taxCode: String?
        /// A count printed before the name without a unit price ("2 x Postkarte 6,00").
        var count: String? = nil
        /// A rate printed among the line's numbers ("Tee 2,50 7%"); one in its words ("Vollmilch 3,5%", "Rabatt 20%") is none.
        var taxRate: String? = nil

        /// The line read with `amount` as its amount, `code` as its tax code (and `words` as its description, when given).
        func with(_ amount: AmountReader.Found, code: String?, words: String? = nil) -> ItemLine {
            var l = ItemLine(
                line: line, amount: amount, quantity: quantity, unitPrice: unitPrice, unitPriceText: unitPriceText, unit: unit,
                description: words ?? description, taxCode: code)
            l.count = count
            l.taxRate = taxRate
            return l
        }
    }

    /// Words that make an item line a deposit (charged, or returned when negative), a voided article, or a charge.
    static let depositWords: KeywordList = ["pfand", "leergut", "mehrweg", "consigne", "deposito", "envase", "deposit", "bottle deposit"]
    static let returnedDepositWords: KeywordList = ["leergut", "pfandruckgabe", "pfand ruckgabe", "retour consigne", "devolucion envase"]
    static let voidWords: KeywordList = ["storno", "void", "voided", "anulacion", "anulado", "annulation", "annule", "batal", "cancelled"]
    static let itemChargeWords: KeywordList = [
        "service charge", "svc chg", "service chg", "svr chg", "srv chg", "serv charge", "serv. charge", "charge", "servis", "bedienung", "servicio",
        "delivery", "lieferung", "versand",
        "livraison", "envio", "penghantaran"
    ]

    /// The first words of a header field that lost its colon ("CASHIER0 0099 Sandip", "CASH SALES COUNTER", "Kasse 2 Bed.
    /// 07"): such a line is no item's description.
    static let headerFieldWords: KeywordList = [
        "cashier", "cashter", "salesperson", "sales person", "server", "served by", "table", "meja", "pax", "counter", "terminal",
        "till", "operator", "kasse", "kassierer", "bediener", "bed", "caissier", "caisse", "cajero", "caja", "juruwang",
        "cash sales", "cash sale", "cash bill", "doc no", "receipt", "invoice", "inv no", "bill no", "order no", "trans", "member"
    ]

    /// A labelled field ("Cashier : 12", "Invoice # : OR1803", "Doc No.; CS0001"): a colon or semicolon after a short label,
    /// a value after it. One further on is part of the words ("MIGHTY MARK DISHWASH: 1L"); one that ends the line is OCR's
    /// noise ("Green Tea ;").
    static func isLabelled(_ text: String) -> Bool {
        guard let k = text.firstIndex(where: { $0 == ":" || $0 == ";" }), text.distance(from: text.startIndex, to: k) <= 16 else { return false }
        return text[..<k].contains(where: \.isLetter) && text[text.index(after: k)...].contains { $0.isLetter || $0.isNumber }
    }

    /// Whether the line starts as a header field does (its first two words).
    static func isHeaderField(_ line: Line) -> Bool {
        let first = line.folded.split(separator: " ").prefix(2).joined(separator: " ")
        guard let k = headerFieldWords.first(in: first) else { return false }
        return first.hasPrefix(k)
    }

    /// The most lines above an amount line its description may take.
    static let descriptionLines = 3

    /// The most item lines read from a page: a longer block is cut there and left unproven.
    static let maxItemLines = 500

    /// The items and the block of lines they were read from.
    func readItems(_ lines: [Line], amounts: [AmountCandidate], dates: [DateCandidate]) -> (ItemsReading?, ItemBlock?) {
        guard let end = ReceiptParser.itemBlockEnd(lines) else { return (nil, nil) }
        let start = ReceiptParser.itemBlockStart(lines, end: end, dates: dates)
        guard start < end else { return (nil, nil) }
        let page = lines[end - 1].evidence.page
        let first = lines[start..<end].first { $0.evidence.page == page }?.evidence.line ?? lines[end - 1].evidence.line
        let block = ItemBlock(page: page, lines: min(first, lines[end - 1].evidence.line)...lines[end - 1].evidence.line)
        return (ReceiptParser.items(of: lines, start: start, end: end, amounts: amounts), block)
    }

    /// The items of the block `start..<end` of `lines`, and what proves them.
    static func items(of lines: [Line], start: Int, end: Int, amounts: [AmountCandidate]) -> ItemsReading? {
        let column = ReceiptParser.amountColumn(lines, end: end)
        var read: [ItemLine] = []
        for line in lines[start..<end] {
            read.append(ReceiptParser.itemLine(line, column: column))
            if read.count > ReceiptParser.maxItemLines { break }
        }
        var items = ReceiptParser.assemble(read)
        // No amount read at all: the lines mended as below, where the page's figures prove them.
        if items.isEmpty, let (mended, _, _) = ReceiptParser.provenMended(read, column: column, amounts: amounts) { items = mended }
        guard !items.isEmpty else { return nil }
        var sectionTotal: Int64?
        ReceiptParser.markVoids(&items)
        // Prices printed outside the amount column above the last item ("1 REV (CAN) 3.50" beside a column of sums): a
        // column this reading did not take, so no sum it makes proves the items.
        let lastItemLine = items.map(\.evidence.line).max() ?? 0
        let unread =
            read.contains { l in
                l.amount == nil && l.unitPrice == nil && l.line.index < lastItemLine && ReceiptParser.printsPrice(l.line.amountText)
                    // In a column right of the page's middle: a description at the margin may end in a number ("Sushi 1,80").
                    && Double(l.line.line.box.right) > column.right / 2
            }
            // One amount that names nothing is as likely a column's sum as a purchase: it proves nothing.
            || !ReceiptParser.namesSomething(items)
        // An invoice that totals its items per tax rate: the sections after the first, proven section by section.
        // The first section alone sums to its own total ("Total 0% supplies"), not to what is paid.
        if !unread, read.count <= ReceiptParser.maxItemLines,
            let (all, total) = ReceiptParser.sections(lines, firstEnd: end, first: items, column: column, amounts: amounts),
            ReceiptParser.prove(items, amounts: amounts).1.map({ $0 < total }) ?? true
        {
            items = all
            sectionTotal = total
        }
        var (check, target) = sectionTotal.map { (ItemsCheck.total, $0) } ?? ReceiptParser.prove(items, amounts: amounts)
        // A total whose label was misread reads as one more item: the first amount that is the sum of the items above it
        // ends them, when the items above it are then proven.
        if check == .unproven, let k = ReceiptParser.runningSumLine(items) {
            let role: AmountRole = k == 1 ? .subtotal : .total
            let (c, t) = ReceiptParser.prove(Array(items.prefix(k)), amounts: amounts + [ReceiptParser.asTotal(items[k], role: role)])
            if c != .unproven { (items, check, target) = (Array(items.prefix(k)), c, t) }
        }
        // Amounts misread on lines that print their quantity and unit price ("1 0.00 9.00" for 0.00, "2x 0.20 u.du"): their
        // product in place of the amount; amounts in the column with letters read for digits ("§.00", "RM6.8SS"): the
        // digits those letters stand for. On all such lines at once, taken only when the page's figures then prove the set.
        if check == .unproven, sectionTotal == nil, let mended = ReceiptParser.provenMended(read, column: column, amounts: amounts) {
            (items, check, target) = mended
        }
        let rates = ReceiptParser.codeRates(lines[end...])
        // The rate the totals print for an item's code is its rate.
        for i in items.indices {
            if let code = items[i].taxCode, let rate = rates[code] { items[i].taxRate = rate }
        }
        let roundings = amounts.filter { $0.role == .rounding && abs($0.value.minorUnits) <= ReceiptParser.largestRounding }
        let rounded = target.map { t in roundings.flatMap { TotalScoring.rounded(t, by: $0.value.minorUnits) } } ?? []
        return ItemsReading(
            items: items, check: read.count > ReceiptParser.maxItemLines || unread ? .unproven : check, target: target, rounded: rounded)
    }

    /// The items of the block's lines with their amounts mended (`mendedAmounts`) and what proves them, when the page's
    /// figures prove them and they name something; nil otherwise.
    static func provenMended(_ read: [ItemLine], column: (right: Double, tolerance: Double), amounts: [AmountCandidate])
        -> ([ItemReading], ItemsCheck, Int64?)?
    {
        guard let mended = mendedAmounts(read, column: column) else { return nil }
        var items = assemble(mended)
        markVoids(&items)
        let (check, target) = prove(items, amounts: amounts)
        return check != .unproven && namesSomething(items) ? (items, check, target) : nil
    }

    /// Whether a set names what it is: more than one amount, or one whose description names something (one amount that
    /// names nothing is as likely a column's sum as a purchase).
    static func namesSomething(_ items: [ItemReading]) -> Bool { items.count != 1 || names(items[0].description) }

    /// The block's lines with quantity × unit price as the amount where the line prints both and its amount differs from
    /// their product, or is a price-shaped token OCR could not read (`unreadableAmount`); and with the digits letters
    /// stand for where the column's token reads as an amount so (`lettersForDigits`). Nil when no line is so.
    static func mendedAmounts(_ read: [ItemLine], column: (right: Double, tolerance: Double)) -> [ItemLine]? {
        var out = read
        var changed = false
        for (k, l) in read.enumerated() {
            guard let q = l.quantity, let p = l.unitPriceText, let made = product(q, p), made >= 0 else { continue }
            let chars = Array(l.line.amountText)
            if let a = l.amount {
                guard abs(a.reading.minorUnits) != made else { continue }
                let units = a.reading.minorUnits < 0 ? -made : made
                let reading = AmountReading(minorUnits: units, fractionDigits: 2, currencyHint: a.reading.currencyHint)
                out[k] = l.with(AmountReader.Found(reading: reading, range: a.range, isRate: false), code: l.taxCode)
            } else if made > 0, let range = unreadableAmount(chars, line: l.line, column: column) {
                let found = AmountReader.Found(
                    reading: AmountReading(minorUnits: made, fractionDigits: 2, currencyHint: nil), range: range, isRate: false)
                out[k] = l.with(found, code: taxCodeAfter(chars, found))
            } else {
                continue
            }
            changed = true
        }
        for (k, l) in read.enumerated() where l.quantity == nil || l.unitPriceText == nil {
            let chars = Array(l.line.amountText)
            guard let (found, code) = lettersForDigits(chars, line: l.line, column: column) else { continue }
            // An amount read from part of the token ("6.8" of "RM6.8SS") is that token's.
            if let a = l.amount, !a.range.overlaps(found.range) || a.reading.minorUnits == found.reading.minorUnits { continue }
            // The words before it: the token was read as words.
            out[k] = l.with(found, code: code, words: description(String(chars[..<found.range.lowerBound])))
            changed = true
        }
        return changed ? out : nil
    }

    /// The letters OCR reads for digits in a printed amount: S and § for 5, I, l and L for 1, B for 8, O and o for 0.
    static let digitLetters: [Character: Character] = ["S": "5", "§": "5", "I": "1", "l": "1", "L": "1", "B": "8", "O": "0", "o": "0"]

    /// The line's last token (before a tax code) where it reaches the amount column and reads as an amount once the letters
    /// OCR reads for digits are digits ("§.00", "RM6.8SS": 6.85 and the code S glued to it, "RMLL.40"), with the tax code
    /// after it; nil when it does not, or has no letter so read.
    static func lettersForDigits(_ c: [Character], line: Line, column: (right: Double, tolerance: Double)) -> (AmountReader.Found, String?)? {
        guard Double(line.line.box.right) >= column.right - column.tolerance else { return nil }
        var t = lastToken(c, before: c.count)
        // Marks after it ("§.00 $", "6.85 |").
        while !t.isEmpty, t.count <= 2, c[t].allSatisfy({ !$0.isLetterFast && !$0.isDigitASCII }) { t = lastToken(c, before: t.lowerBound) }
        var code: String?
        if (1...3).contains(t.count), c[t].allSatisfy(\.isLetterFast) {
            code = String(c[t]).uppercased()
            t = lastToken(c, before: t.lowerBound)
        }
        var start = t.lowerBound
        if t.count > 4, c[start] == "R", c[start + 1] == "M" { start += 2 }
        guard let sep = c[start..<t.upperBound].firstIndex(where: { $0 == "." || $0 == "," }), sep > start, sep + 3 <= t.upperBound else {
            return nil
        }
        // A code glued to the amount ("6.8SS": 6.85 and S).
        let glued = String(c[(sep + 3)..<t.upperBound])
        guard glued.count <= 2, glued.allSatisfy(\.isLetterFast) else { return nil }
        var digits = ""
        var letters = 0
        for (i, ch) in c[start..<(sep + 3)].enumerated() where start + i != sep {
            if ch.isDigitASCII {
                digits.append(ch)
            } else if let d = digitLetters[ch] {
                digits.append(d)
                letters += 1
            } else {
                return nil
            }
        }
        guard letters > 0, digits.count - letters >= 1, digits.count <= 9, let units = Int64(digits) else { return nil }
        let found = AmountReader.Found(
            reading: AmountReading(minorUnits: units, fractionDigits: 2, currencyHint: nil), range: start..<(sep + 3), isRate: false)
        return (found, glued.isEmpty ? code : glued.uppercased())
    }

    /// The last token of `c` that ends at or before `limit`, the spaces after it skipped.
    static func lastToken(_ c: [Character], before limit: Int) -> Range<Int> {
        var end = limit
        while end > 0, c[end - 1] == " " { end -= 1 }
        var start = end
        while start > 0, c[start - 1] != " " { start -= 1 }
        return start..<end
    }

    /// Where the line's last token (before a tax code) stands when it reaches the amount column and is shaped as a price
    /// some of whose characters are no digits ("u.du", "1.S0"): an amount OCR could not read. Nil when it is not so.
    static func unreadableAmount(_ c: [Character], line: Line, column: (right: Double, tolerance: Double)) -> Range<Int>? {
        guard Double(line.line.box.right) >= column.right - column.tolerance else { return nil }
        var t = lastToken(c, before: c.count)
        if (1...3).contains(t.count), c[t].allSatisfy({ $0.isASCII && $0.isUppercase }) { t = lastToken(c, before: t.lowerBound) }
        let chars = Array(c[t])
        guard (4...9).contains(chars.count), let sep = chars.lastIndex(where: { $0 == "." || $0 == "," }), sep == chars.count - 3,
            chars.contains(where: { !$0.isDigitASCII && $0 != "." && $0 != "," })
        else { return nil }
        return t
    }

    /// A negative line that takes back an article above it, amount for amount and name for name ("MOSQUITO RACKET 13.50" …
    /// "MOSQUITO RACKET -1 X 13.50 -13.50"), is a voided article, not a discount (unless it says it is one).
    static func markVoids(_ items: inout [ItemReading]) {
        func name(_ d: String) -> String { String(TextFolding.fold(d).filter(\.isLetter).prefix(12)) }
        for i in items.indices where items[i].kind == .discount && items[i].amount.minorUnits < 0 {
            let k = name(items[i].description)
            guard k.count >= 4, !Keywords.discount.any(in: TextFolding.fold(items[i].evidence.text)) else { continue }
            if items[..<i].contains(where: { $0.kind == .item && $0.amount.minorUnits == -items[i].amount.minorUnits && name($0.description) == k }) {
                items[i].kind = .void
            }
        }
    }

    /// An invoice that totals its items per tax rate ("Total 0% supplies: 23.64", then the 6% items, "Total 6% supplies
    /// (excl. GST): 12.00", "(Inc. GST): 12.72", "Total Payable: 36.36"): the item sections after the first, when each
    /// section's items sum to a total printed under them and those totals, each with or without its tax, make the largest
    /// total below. All the items and that total; nil when the arithmetic does not close.
    static func sections(_ lines: [Line], firstEnd: Int, first: [ItemReading], column: (right: Double, tolerance: Double), amounts: [AmountCandidate])
        -> ([ItemReading], Int64)?
    {
        var byKey: [Int: Int] = [:]
        for (i, l) in lines.enumerated() { byKey[key(l.evidence)] = i }
        var printed: [Int: [AmountCandidate]] = [:]
        for a in amounts where !a.computed {
            if let e = a.evidence, let i = byKey[key(e)] { printed[i, default: []].append(a) }
        }
        func sum(_ items: [ItemReading]) -> Int64 { items.reduce(0) { $0 &+ $1.amount.minorUnits } }
        func isItemLine(_ l: Line) -> Bool {
            guard l.role.0 == nil || l.role.0 == .lineItem else { return false }
            let read = itemLine(l, column: column)
            return read.amount != nil && names(read.description) && !isUnitWords(read.description)
        }
        var all = first
        var sums = [sum(first)]
        var trailing: [[Int64]] = []
        var end = firstEnd
        var last = lines.count
        while true {
            // The totals under the section, up to the next item line.
            var k = end
            var totals: [Int64] = []
            while k < lines.count, !isItemLine(lines[k]) {
                if let role = lines[k].role.0, role == .tendered || role == .change { break }
                totals += (printed[k] ?? []).map(\.value.minorUnits)
                k += 1
            }
            trailing.append(totals)
            last = k
            guard sums.count < 4, k < lines.count, isItemLine(lines[k]), let next = itemBlockEnd(Array(lines[k...])), next > 0 else { break }
            let items = assemble(lines[k..<(k + next)].map { itemLine($0, column: column) })
            guard !items.isEmpty else { return nil }
            all += items
            sums.append(sum(items))
            end = k + next
        }
        guard sums.count >= 2, all.count <= maxItemLines else { return nil }
        // Each section's own total, then the ones it may be with its tax (at most 30 % more).
        var choices: [[Int64]] = []
        for (s, t) in zip(sums, trailing) {
            guard s > 0, t.contains(s) else { return nil }
            choices.append(Array(Set(t.filter { $0 >= s && $0 <= s + s / 10 * 3 })))
        }
        let below = (last..<lines.count).flatMap { printed[$0] ?? [] }.filter { $0.role == .total }.map(\.value.minorUnits)
        let finals = Set(trailing.flatMap { $0 } + below).filter { $0 > sums.max() ?? 0 }
        var made: Set<Int64> = [0]
        for c in choices { made = Set(made.flatMap { m in c.map { m &+ $0 } }) }
        guard let total = finals.filter({ made.contains($0) }).max() else { return nil }
        return (all, total)
    }

    /// The first item (from the third on) whose amount is the sum of the items above it; the second, when it repeats the
    /// first's amount and its words begin as a subtotal's label misread ("SUB TO01.: 7.00").
    static func runningSumLine(_ items: [ItemReading]) -> Int? {
        var sum: Int64 = 0
        for (k, item) in items.enumerated() {
            let subtotal = TextFolding.fold(item.evidence.text).split(separator: " ").prefix(2).contains { w in
                w == "sub" || w.hasPrefix("subt") || w.hasPrefix("sub-") || w.hasPrefix("sub.")
            }
            if k >= 2 || k == 1 && subtotal, item.amount.minorUnits == sum, sum > 0 { return k }
            let (s, overflow) = sum.addingReportingOverflow(item.amount.minorUnits)
            if overflow { return nil }
            sum = s
        }
        return nil
    }

    /// An item line read as the total it is.
    static func asTotal(_ item: ItemReading, role: AmountRole = .total) -> AmountCandidate {
        Candidate(value: item.amount, role: role, score: 0, evidence: item.evidence, notes: ["the sum of the items above it"])
    }

    /// The first line of the totals: a subtotal, total, tax, payment or change line, or a count of the items.
    static func itemBlockEnd(_ lines: [Line]) -> Int? {
        var amountAbove = false
        for (i, line) in lines.enumerated() {
            defer { if line.amounts.contains(where: { !$0.isRate }) { amountAbove = true } }
            let folded = line.folded
            // "Total Qty: 4", "Item(s) : 3 Qty(s) : 3", "Item Count: 4", "TOTQTY: 3"; not the column heading "QTY ITEM TOTAL".
            if folded.contains(where: \.isDigitASCII), Keywords.count.any(in: folded) || folded.contains("qty"),
                Keywords.total.any(in: folded) || folded.contains("item") || folded.contains("count") || folded.contains("totqty")
                    || folded.contains("totalqty") || folded.contains("qty(s)")
            {
                return i
            }
            guard let role = line.role.0 else { continue }
            let amount = line.amounts.contains { !$0.isRate }
            switch role {
            case .subtotal, .total, .tendered, .change, .cashback, .tax:
                // A tax ID in the header ("GST ID No: 000504664064") prints no amount.
                // Nor does the items' column heading ("Description Amount", "Qty Item Total").
                // A total whose amount is unreadable ("Total Sales Inclusive GST @6% == 00") below amounts ends them too.
                if amount
                    // Above any amount, such a line is a column heading OCR misread ("kem aly Total").
                    || (role == .total || role == .subtotal) && amountAbove && !Keywords.itemColumns.any(in: folded)
                        && !isHeading(line)
                {
                    return i
                }
            default: continue
            }
        }
        return nil
    }

    /// The first line of the items: after the item table's column heading, else after the line above the totals that
    /// prints the transaction date.
    static func itemBlockStart(_ lines: [Line], end: Int, dates: [DateCandidate]) -> Int {
        var start = 0
        // The date the page most likely means, not every date shape (an article code "HCO3-7 - 15" reads as one).
        let best = dates.filter { $0.role == .transaction }.max { $0.score < $1.score }
        let dateLine = best?.evidence.map(ReceiptParser.key)
        // Below a line that prints money, one column word is an item's name ("Price Label (PLAIN)"); only a heading is a heading.
        var money = false
        for i in 0..<end {
            let line = lines[i]
            if ReceiptParser.key(line.evidence) == dateLine { (start, money) = (i + 1, false) }
            // Above any money a heading OCR misread may keep only a third of its words ("Romi ClymaeeSiPriceme mount ea Tax").
            if line.amounts.isEmpty, line.line.words.count >= 2,
                !money && (Keywords.itemColumns.any(in: line.folded) || isHeading(line, share: 3)) || isHeading(line)
            {
                (start, money) = (i + 1, false)
            }
            if i >= start, line.amounts.contains(where: { !$0.isRate }) { money = true }
        }
        return start
    }

    /// Where an amount ends, estimated from its place in the line's text (receipt print is close to monospaced).
    static func rightEdge(_ f: AmountReader.Found, of line: Line) -> Double {
        // The word the amount ends in, when the mended text has the line's words one for one.
        let chars = Array(line.amountText)
        let words = line.line.words
        if chars.split(separator: " ").count == words.count, f.range.upperBound >= 1 {
            let k = chars[..<(f.range.upperBound - 1)].filter { $0 == " " }.count
            if k < words.count { return Double(words[k].box.right) }
        }
        let box = line.line.box
        let n = max(1, chars.count)
        return Double(box.left) + Double(box.width) * Double(f.range.upperBound) / Double(n)
    }

    /// The right edge of the amount column and how far from it an amount may end: from the totals' amounts, else
    /// from the right-most amounts of the block.
    static func amountColumn(_ lines: [Line], end: Int) -> (right: Double, tolerance: Double) {
        let page = lines[end].page
        let onPage = lines.filter { $0.page == page }
        let left = onPage.map(\.line.box.left).min() ?? 0
        let right = onPage.map(\.line.box.right).max() ?? 0
        let width = Double(max(1, right - left))
        var edges: [Double] = []
        for line in lines[end...].prefix(8) where line.page == page {
            if let f = line.amounts.last(where: { !$0.isRate }) { edges.append(rightEdge(f, of: line)) }
        }
        let column = edges.max() ?? Double(right)
        return (column, width * 0.12)
    }

    /// Reads one line of the item block.
    static func itemLine(_ line: Line, column: (right: Double, tolerance: Double)) -> ItemLine {
        let found = line.amounts.filter { !$0.isRate }
        let chars = Array(line.amountText)
        var inColumn = found.last { rightEdge($0, of: line) >= column.right - column.tolerance }
        // "1 70.00 SR": the amount stands left of a tax code column that reaches the totals' column.
        if inColumn == nil, let last = found.last, Double(line.line.box.right) >= column.right - column.tolerance,
            taxCodeAfter(chars, last) != nil
        {
            inColumn = last
        }
        if inColumn == nil, let repaired = pointLost(chars, found: found, line: line, column: column) { inColumn = repaired }
        var (quantity, unit, price, priceText, numbersStart) = quantityAndPrice(chars, found: found, amount: inColumn)
        if inColumn == nil, let q = quantity, let p = priceText, let glued = codeGlued(chars, making: product(q, p)) { inColumn = glued }
        // A repaired amount is none of the reader's: the numbers before it, then it.
        let numbers = inColumn.map { a in found.contains(a) ? found : found.filter { $0.range.upperBound <= a.range.lowerBound } + [a] } ?? found
        if quantity == nil, let amount = inColumn, let (q, p, start) = columnQuantity(chars, found: numbers, amount: amount) {
            (quantity, price, priceText, numbersStart) = (q, p.0, p.1, start)
        }
        var leading: String?
        if quantity == nil, let q = leadingCount(chars) { leading = q }
        var cut = numbersStart ?? chars.count
        if let a = inColumn { cut = min(cut, a.range.lowerBound) }
        let taxCode = inColumn.flatMap { taxCodeAfter(chars, $0) }
        let rate = line.amounts.first { $0.isRate && $0.range.lowerBound >= cut }
        return ItemLine(
            line: line, amount: inColumn, quantity: quantity, unitPrice: price, unitPriceText: priceText, unit: unit,
            description: description(String(chars[..<cut])), taxCode: taxCode, count: leading,
            taxRate: rate.map { trimRate(Money.decimalString(minorUnits: $0.reading.minorUnits, digits: 2)) })
    }

    /// "2 x Postkarte", "2x Cola": a count before the name, printed without a unit price.
    static func leadingCount(_ c: [Character]) -> String? {
        var t = 0
        while t < c.count, c[t].isDigitASCII { t += 1 }
        guard (1...3).contains(t), t < c.count else { return nil }
        var k = t
        while k < c.count, c[k] == " " { k += 1 }
        // The sign, which OCR may double ("3 xX Sparkling Water").
        var e = k
        while e < c.count, e - k < 2, isTimes(c[e]) { e += 1 }
        guard e > k, e < c.count, c[e] == " " else { return nil }
        return String(c[..<t])
    }

    /// A multiplication sign as printed or read: x, X or ×.
    static func isTimes(_ ch: Character) -> Bool { ch == "x" || ch == "X" || ch == "×" }

    /// "2786 2 4.77 9.54": a quantity column and a unit price column before the amount, without a multiplication sign:
    /// the integer right before the amount before the line's amount, and that amount. Proven later, by their product.
    static func columnQuantity(_ c: [Character], found: [AmountReader.Found], amount: AmountReader.Found)
        -> (String, (Int64, String), Int)?
    {
        guard let k = found.firstIndex(of: amount), k >= 1 else { return nil }
        let price = found[k - 1]
        let printed = String(c[price.range])
        // "1 148.40" read as one amount with a space between its groups: the quantity, then the unit price.
        if let space = printed.lastIndex(of: " "), let q = Int(printed[..<space].trimmingCharacters(in: .whitespaces)), (1...999).contains(q),
            let text = unitPrice(String(printed[printed.index(after: space)...]))
        {
            return (String(q), text, price.range.lowerBound)
        }
        guard let text = unitPrice(printed) else { return nil }
        // "CAFE CREME 12.00 2 24.00": the quantity between the unit price and the amount.
        let between = String(c[price.range.upperBound..<amount.range.lowerBound]).trimmingCharacters(in: .whitespaces)
        if (1...3).contains(between.count), between.allSatisfy({ $0.isASCII && $0.isNumber }), product(between, text.1) == amount.reading.minorUnits {
            return (between, text, price.range.lowerBound)
        }
        var e = price.range.lowerBound - 1
        guard e >= 1, c[e] == " " else { return nil }
        while e >= 0, c[e] == " " { e -= 1 }
        var s = e
        while s >= 0, c[s].isDigitASCII { s -= 1 }
        if (1...3).contains(e - s), s < 0 || c[s] == " " { return (String(c[(s + 1)...e]), text, s + 1) }
        // "3 Übernachtung Doppelzimmer 96,00 288,00": the quantity leads the line, the description between.
        var t = 0
        while t < c.count, c[t].isDigitASCII { t += 1 }
        guard (1...3).contains(t), t + 1 < c.count, c[t] == " ", c[t + 1].isLetterFast else { return nil }
        return (String(c[..<t]), text, price.range.lowerBound)
    }

    /// "2 4.77 954 SR": an amount in the column printed (or read) without its decimal point, which quantity × unit price
    /// on the same line gives digit for digit. Nil when the line has no such proof.
    static func pointLost(_ c: [Character], found: [AmountReader.Found], line: Line, column: (right: Double, tolerance: Double))
        -> AmountReader.Found?
    {
        var end = c.count
        // A tax code after it ("954 SR").
        if let space = c.lastIndex(of: " "), c.count - space <= 3, c[(space + 1)...].allSatisfy({ $0.isLetterFast }) { end = space }
        var start = end
        while start > 0, c[start - 1].isDigitASCII { start -= 1 }
        guard (3...7).contains(end - start), start == 0 || c[start - 1] == " ", let units = Int64(String(c[start..<end])) else { return nil }
        let candidate = AmountReader.Found(
            reading: AmountReading(minorUnits: units, fractionDigits: 2, currencyHint: nil), range: start..<end, isRate: false)
        // It ends in the amount column, or a tax code after it does.
        let reach = end < c.count ? Double(line.line.box.right) : rightEdge(candidate, of: line)
        guard reach >= column.right - column.tolerance else { return nil }
        // The amounts before it (an integer the reader took as an amount is this one).
        let before = found.filter { $0.range.upperBound <= start }
        if let (q, p, _) = columnQuantity(c, found: before + [candidate], amount: candidate), product(q, p.1) == units { return candidate }
        // "1471 1 477 477 SR": the unit price lost its point too; quantity × price still gives the amount digit for digit.
        func number(endingAt e: Int, digits: ClosedRange<Int>) -> (Int64, Int)? {
            var s = e
            while s > 0, c[s - 1].isDigitASCII { s -= 1 }
            guard digits.contains(e - s), s == 0 || c[s - 1] == " ", let n = Int64(String(c[s..<e])) else { return nil }
            return (n, s)
        }
        var e = start
        while e > 0, c[e - 1] == " " { e -= 1 }
        guard e < start, let (price, priceStart) = number(endingAt: e, digits: 3...7) else { return nil }
        var f = priceStart
        while f > 0, c[f - 1] == " " { f -= 1 }
        guard f < priceStart, let (quantity, _) = number(endingAt: f, digits: 1...3), quantity > 0 else { return nil }
        let (made, overflow) = quantity.multipliedReportingOverflow(by: price)
        return !overflow && made == units ? candidate : nil
    }

    /// "1X 5.20 5.205": the amount with a tax code glued to it that OCR read as one more digit ("5.20S"): taken when the
    /// amount without that digit is what quantity × unit price make.
    static func codeGlued(_ c: [Character], making units: Int64?) -> AmountReader.Found? {
        guard let units, let space = c.lastIndex(of: " ") else { return nil }
        let token = c[(space + 1)...]
        guard token.count >= 5, let dot = token.firstIndex(where: { $0 == "." || $0 == "," }), c.count - dot == 4,
            token.filter({ $0 == "." || $0 == "," }).count == 1, token.allSatisfy({ $0.isDigitASCII || $0 == "." || $0 == "," })
        else { return nil }
        let digits = String(token.dropLast().filter(\.isDigitASCII))
        guard let value = Int64(digits), value == units else { return nil }
        return AmountReader.Found(
            reading: AmountReading(minorUnits: value, fractionDigits: 2, currencyHint: nil), range: (space + 1)..<(c.count - 1), isRate: false)
    }

    /// Whether the line ends in a price, as a price column prints it: its last token with digits is digits, a decimal
    /// point or comma and exactly two digits ("3.50", "14,30"), a short code after it allowed.
    static func printsPrice(_ text: String) -> Bool {
        guard let token = text.split(separator: " ").last(where: { $0.contains(where: \.isDigitASCII) }) else { return false }
        let t = Array(token.trimmingCharacters(in: CharacterSet(charactersIn: "$€£RM-")))
        guard t.count >= 4, let sep = t.lastIndex(where: { $0 == "." || $0 == "," }), sep == t.count - 3 else { return false }
        return t[..<sep].allSatisfy { $0.isDigitASCII || $0 == "," || $0 == "." } && t[(sep + 1)...].allSatisfy(\.isDigitASCII)
    }

    /// The tax code printed right after an amount and ending the line ("2.38 B", "9.00 SR", "3.55 ZRL", "*S"), nil when none is.
    static func taxCodeAfter(_ chars: [Character], _ amount: AmountReader.Found) -> String? {
        let after = String(chars[amount.range.upperBound...]).split(separator: " ").filter { !$0.allSatisfy { $0 == "-" || $0 == ")" } }
        guard after.count == 1, let code = after.first else { return nil }
        let c = code.trimmingCharacters(in: CharacterSet(charactersIn: "*#"))
        return (1...3).contains(c.count) && c.allSatisfy({ $0.isASCII && $0.isUppercase }) ? c : nil
    }

    /// The description a line's text gives: without a leading quantity ("2x", "1"), currency marks, and the punctuation
    /// left where the numbers were cut off.
    static func description(_ text: String) -> String {
        var words = text.split(separator: " ").map(String.init)
        if let first = words.first, words.count > 1,
            first.count <= 4, first.dropLast(first.last == "x" || first.last == "X" ? 1 : 0).allSatisfy(\.isDigitASCII)
        {
            words.removeFirst()
            if let x = words.first, words.count > 1, x.count <= 2, x.allSatisfy(isTimes) { words.removeFirst() }
        }
        while let last = words.last,
            last.allSatisfy({ !$0.isLetterFast && !$0.isDigitASCII }) || ["RM", "EUR", "€", "$", "x", "X", "@"].contains(last)
        {
            words.removeLast()
        }
        let joined = words.joined(separator: " ")
        return joined.trimmingCharacters(in: CharacterSet(charactersIn: " :;-*"))
    }

    /// Whether an amount line's words are at most two short ones ("ape @ 5.50", "10.00 NOS x 070", "1 FRO 12.90", "SR 2 0°.
    /// 6.10"): a unit, a code or OCR's reading of one, not the item's name.
    static func isUnitWords(_ description: String) -> Bool {
        let words = description.split(separator: " ").map { $0.filter(\.isLetterFast).count }.filter { $0 > 0 }
        return words.count <= 2 && (words.max() ?? 0) <= 3
    }

    /// True when the description names something: a word of two letters or more.
    static func names(_ description: String) -> Bool {
        description.split(separator: " ").contains { w in
            let letters = w.filter(\.isLetterFast).count
            return letters >= 2 && letters >= w.filter(\.isDigitASCII).count
        }
    }

    /// The words of an item table's column heading, as printed and as OCR reads them ("Qty", "Oty", "U/P", "RM").
    static let headingWords: Set<Substring> = [
        "item", "items", "tem", "ltem", "ite", "qty", "oty", "qy", "aty", "quantity", "price", "u/p", "u.price", "s/price", "amount", "amt",
        "total", "rm", "code", "description", "desc", "disc", "tax", "menge", "preis", "betrag", "artikel", "bezeichnung", "cantidad",
        "precio", "importe", "descripcion", "articulo", "designation", "qte", "prix", "montant", "kuantiti", "harga", "jumlah", "barang"
    ]

    /// A column heading: no amount, and two words or more of `headingWords`, at least one in `share` of its words (half
    /// unless told).
    static func isHeading(_ line: Line, share: Int = 2) -> Bool {
        // A heading prints no number ("lotal QTY: 2" is a count).
        guard !line.amounts.contains(where: { !$0.isRate }), !line.folded.contains(where: \.isDigitASCII) else { return false }
        let words = line.folded.split { $0 == " " || $0 == "_" || $0 == "|" || $0 == "=" }.map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "()[]:.,-"))
        }
        let known = words.filter(isHeadingWord).count
        return known >= 2 && known * share >= words.count
    }

    /// A heading word, or a word of four letters or more one letter from one ("SPrice", "Amout", "Descripton").
    static func isHeadingWord(_ word: String) -> Bool {
        if headingWords.contains(Substring(word)) { return true }
        guard word.count >= 4 else { return false }
        let bytes = Array(word.utf8)
        return headingWordBytes.contains { $0.count >= 4 && abs($0.count - bytes.count) <= 1 && NameMender.editDistance($0, bytes, atMost: 1) }
    }

    static let headingWordBytes: [[UInt8]] = headingWords.map { Array($0.utf8) }

    /// A quantity and a unit price printed on the line: "2 x 1,19", "2 Stk x 1,19", "0,532 kg x 2,99", "2 @ 1.19",
    /// "@ 28.00" (the quantity then the leading number of the line), with where the numbers begin.
    static func quantityAndPrice(_ c: [Character], found: [AmountReader.Found], amount: AmountReader.Found?)
        -> (String?, String?, Int64?, String?, Int?)
    {
        // The multiplication sign: x, X, ×, * or @ standing alone or right after a number.
        for i in c.indices where "xX×*@".contains(c[i]) {
            let before = i > 0 ? c[i - 1] : " "
            let after = i + 1 < c.count ? c[i + 1] : " "
            guard before == " " || before.isDigitASCII, after == " " || after.isDigitASCII || after == "R" else { continue }
            // The price: the first number after the sign (three decimals allowed: a price per kilo or litre).
            var j = i + 1
            while j < c.count, c[j] == " " || c[j] == "R" || c[j] == "M" || c[j] == "€" || c[j] == "$" { j += 1 }
            var k = j
            while k < c.count, c[k].isDigitASCII || c[k] == "." || c[k] == "," { k += 1 }
            guard k > j, let (priceUnits, priceText) = unitPrice(String(c[j..<k])) else { continue }
            if let amount, j >= amount.range.lowerBound, found.count > 1 || c[i] != "@" { continue }
            // The quantity: the number before the sign, with a unit word between ("2 Stk x", "0,532 kg x").
            var q = i - 1
            while q >= 0, c[q] == " " { q -= 1 }
            var unit: String?
            var u = q
            while u >= 0, c[u].isLetterFast || c[u] == "." { u -= 1 }
            if u < q, q - u <= 4 {
                unit = String(c[(u + 1)...q]).trimmingCharacters(in: CharacterSet(charactersIn: "."))
                q = u
                while q >= 0, c[q] == " " { q -= 1 }
            }
            var s = q
            while s >= 0, c[s].isDigitASCII || c[s] == "," || c[s] == "." { s -= 1 }
            var quantity = s < q ? String(c[(s + 1)...q]).replacingOccurrences(of: ",", with: ".") : nil
            var numbersStart = s + 1
            if quantity == nil || unit == nil && c[i] == "@" {
                // "1 UROKO SALAD @ 28.00": the quantity leads the line.
                var t = 0
                while t < c.count, c[t].isDigitASCII { t += 1 }
                if quantity == nil, t > 0, t <= 3, t < c.count, c[t] == " " { quantity = String(c[..<t]) }
                if quantity == nil || s < q { numbersStart = i }
                unit = nil
            }
            if let qt = quantity, !LineItem.isDecimal(qt) { quantity = nil }
            return (quantity, unit, priceUnits, priceText, min(numbersStart, i))
        }
        return (nil, nil, nil, nil, nil)
    }

    /// A unit price as printed ("1,19", "2,99", "0,129") in cents (rounded half away from zero for three decimals) and
    /// as dot-decimal text.
    static func unitPrice(_ token: String) -> (Int64, String)? {
        let t = token.replacingOccurrences(of: ",", with: ".").trimmingCharacters(in: CharacterSet(charactersIn: "."))
        let parts = t.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let whole = Int64(parts[0]), parts[0].count <= 7, (2...4).contains(parts[1].count),
            let frac = Int64(parts[1])
        else { return nil }
        var scaled = whole
        for _ in 0..<parts[1].count { scaled *= 10 }
        scaled += frac
        var div: Int64 = 1
        for _ in 0..<(parts[1].count - 2) { div *= 10 }
        return ((scaled + div / 2) / div, t)
    }

    /// quantity × unit price in cents, rounded half away from zero; nil when the quantity is not a plain decimal.
    static func product(_ quantity: String, _ priceText: String) -> Int64? {
        func scaled(_ s: String) -> (Int64, Int)? {
            let parts = s.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 7 }), let w = Int64(parts[0]) else { return nil }
            guard parts.count == 2, let f = Int64(parts[1]) else { return (w, 0) }
            var scale: Int64 = 1
            for _ in 0..<parts[1].count { scale *= 10 }
            return (w * scale + f, parts[1].count)
        }
        guard let (q, qd) = scaled(quantity), let (p, pd) = scaled(priceText) else { return nil }
        let (raw, overflow) = q.multipliedReportingOverflow(by: p)
        guard !overflow else { return nil }
        let digits = qd + pd
        guard digits >= 2 else { return raw * (digits == 1 ? 10 : 100) }
        var div: Int64 = 1
        for _ in 0..<(digits - 2) { div *= 10 }
        return (raw + div / 2) / div
    }

    /// The items of the block's lines: each amount line is an item; the lines without an amount above it give its
    /// description when it prints none of its own, and a quantity line next to it its quantity and unit price when they
    /// make its amount.
    static func assemble(_ read: [ItemLine]) -> [ItemReading] {
        if descriptionsBelow(read) { return assembleBelow(read) }
        var items: [ItemReading] = []
        var pending: [ItemLine] = []
        var lastLine: ItemLine?
        func proven(_ l: ItemLine, amount: Int64) -> (String, String)? {
            guard let q = l.quantity, let p = l.unitPriceText, product(q, p) == abs(amount) else { return nil }
            return (q, p)
        }
        for l in read {
            guard let found = l.amount else {
                // A quantity line under an item: "2 Stk x 1,19".
                if let last = items.last, last.quantity == nil, let (q, p) = proven(l, amount: last.amount.minorUnits) {
                    items[items.count - 1].quantity = q
                    items[items.count - 1].unitPrice = p
                    items[items.count - 1].unit = l.unit
                    items[items.count - 1].box = last.box.union(l.line.line.box)
                    if !names(last.description) && names(l.description) { items[items.count - 1].description = l.description }
                    continue
                }
                if names(l.description) || l.quantity != nil { pending.append(l) }
                continue
            }
            var description = names(l.description) ? l.description : ""
            var box = l.line.line.box
            var first = l.line.index
            var quantity: (String, String)? = proven(l, amount: found.reading.minorUnits)
            var unit = quantity == nil ? nil : l.unit
            // A header field ("Cashier : 12", "Invoice # : OR1803") is no description.
            pending = Array(pending.suffix(ReceiptParser.descriptionLines))
            // A heading or a header field ends what stands above it: no description reaches over it.
            // So does a total word without an amount above the items ("kem aly Total": a heading OCR misread).
            if let barrier = pending.lastIndex(where: { p in
                isHeading(p.line) || isHeaderField(p.line) || p.line.amounts.isEmpty && (p.line.role.0 == .total || p.line.role.0 == .subtotal)
            }) {
                pending.removeFirst(barrier + 1)
            }
            pending = pending.filter { p in p.line.page == l.line.page && !isLabelled(p.line.text) }
            // Words of three letters at most beside the numbers ("ape @ 5.50 11.00", "10.00 NOS x 070 7.00") are a unit or
            // OCR's reading of one, not a name, when a line above names the item.
            if !description.isEmpty, isUnitWords(description),
                pending.contains(where: { names($0.description) && $0.line.line.box.left <= l.line.line.box.left + max(1, l.line.line.box.height) })
            {
                description = ""
            }
            let height = max(1, l.line.line.box.height)
            func take(_ lines: [ItemLine]) {
                let words = lines.filter { names($0.description) }.map(\.description)
                description = (words + (description.isEmpty ? [] : [description])).joined(separator: " ")
                for p in lines {
                    box = box.union(p.line.line.box)
                    first = min(first, p.line.index)
                }
            }
            if description.isEmpty {
                // Only numbers on the amount line: its words are on the lines above, at their own left margin (a centred
                // header line is not among them).
                // Above the first item the header's last lines stand too: only the two nearest lines are its words there.
                let near = items.isEmpty ? Array(pending.suffix(2)) : pending
                let left = near.map(\.line.line.box.left).min() ?? 0
                take(near.filter { $0.line.line.box.left <= left + 2 * height })
            } else if !pending.isEmpty {
                // Lines indented under the item above are its own (a meal's parts, a description going on); lines at the
                // margin are this item's first words, unless the item above reads as going on. Above the first item: the
                // rest of the header.
                let indented = pending.filter { $0.line.line.box.left > l.line.line.box.left + height }
                let flush = pending.filter { $0.line.line.box.left <= l.line.line.box.left + height }
                if let previous = items.indices.last {
                    let goesOn = ReceiptParser.continues(items[previous])
                    let words = (goesOn ? pending : indented).filter { names($0.description) }.map(\.description)
                    if !words.isEmpty { items[previous].description += " " + words.joined(separator: " ") }
                    take(goesOn ? [] : flush)
                }
            }
            if quantity == nil, let q = pending.last(where: { proven($0, amount: found.reading.minorUnits) != nil }) {
                quantity = proven(q, amount: found.reading.minorUnits)
                unit = q.unit
            }
            pending = []
            let (kind, units) = kindAndAmount(l.line.folded, found.reading.minorUnits)
            // "Discount 0.00": nothing was taken off.
            if units == 0 && kind != .item { continue }
            let reading = AmountReading(minorUnits: units, fractionDigits: found.reading.fractionDigits, currencyHint: found.reading.currencyHint)
            items.append(
                ItemReading(
                    kind: kind, description: String(description.prefix(LineItem.maxDescription)), quantity: quantity?.0 ?? l.count, unit: unit,
                    unitPrice: quantity?.1, amount: reading, taxCode: l.taxCode,
                    taxRate: l.taxRate, evidence: l.line.evidence, box: box, firstLine: first))
            lastLine = l
        }
        if let l = lastLine { continueLast(&items, after: l, with: pending) }
        return items
    }

    /// What an amount line is, by its words: a void or a discount (taken off), a deposit (a returned one taken off), a
    /// charge, or an item; with its amount signed so.
    static func kindAndAmount(_ folded: String, _ units: Int64) -> (LineItem.Kind, Int64) {
        if voidWords.any(in: folded) { return (.void, -abs(units)) }
        if Keywords.discount.any(in: folded) || units < 0 && !depositWords.any(in: folded) { return (.discount, -abs(units)) }
        if depositWords.any(in: folded) { return (.deposit, returnedDepositWords.any(in: folded) ? -abs(units) : units) }
        if itemChargeWords.any(in: folded) { return (.charge, units) }
        return (.item, units)
    }

    /// Lines indented under the last item `last`, before the totals, go on with its description ("Kicap Manis 3.80" /
    /// "   Botol 625ml").
    static func continueLast(_ items: inout [ItemReading], after last: ItemLine, with pending: [ItemLine]) {
        guard let k = items.indices.last else { return }
        let height = max(1, last.line.line.box.height)
        let indented = pending.filter { p in
            p.line.page == last.line.page && p.line.line.box.left > last.line.line.box.left + height && names(p.description)
                && !isLabelled(p.line.text) && p.line.amounts.isEmpty && p.quantity == nil
        }
        for p in indented.prefix(descriptionLines - 1) {
            let words = items[k].description.isEmpty ? p.description : items[k].description + " " + p.description
            items[k].description = String(words.prefix(LineItem.maxDescription))
            items[k].box = items[k].box.union(p.line.line.box)
        }
    }

    /// Whether the block prints each item's numbers first and its words on the line below ("9556127101331 1 1.41 1.50
    /// 1.50 SR" / "GARDENIA ORIGINAL CLASSIC JUMBO [600G]"): every amount line prints only numbers, and words follow the
    /// last of them before the totals (in the other order nothing would).
    static func descriptionsBelow(_ read: [ItemLine]) -> Bool {
        guard let last = read.lastIndex(where: { $0.amount != nil }), let first = read.firstIndex(where: { $0.amount != nil }) else { return false }
        let amountLines = read.filter { $0.amount != nil }
        guard amountLines.allSatisfy({ !names($0.description) || isUnitWords($0.description) }) else { return false }
        // One amount line: its words are below it when none stand above it in the block (two short words are a heading's
        // units misread, "(RM) (RM)" as "(RH) ie", not a name).
        if amountLines.count == 1,
            read[..<first].contains(where: { names($0.description) && !isLabelled($0.line.text) && !isUnitWords($0.description) })
        {
            return false
        }
        return read[(last + 1)...].contains { names($0.description) && !isLabelled($0.line.text) }
    }

    /// The items of a block whose words follow their numbers: each amount line with the lines after it up to the next.
    static func assembleBelow(_ read: [ItemLine]) -> [ItemReading] {
        var items: [ItemReading] = []
        for (k, l) in read.enumerated() {
            guard let found = l.amount else { continue }
            let next = read[(k + 1)...].firstIndex { $0.amount != nil } ?? read.count
            let words = read[(k + 1)..<next].prefix(descriptionLines).filter {
                names($0.description) && !isLabelled($0.line.text) && !isHeaderField($0.line)
            }
            var box = l.line.line.box
            for w in words { box = box.union(w.line.line.box) }
            let proven = l.quantity.flatMap { q in l.unitPriceText.flatMap { p in product(q, p) == abs(found.reading.minorUnits) ? (q, p) : nil } }
            items.append(
                ItemReading(
                    kind: found.reading.minorUnits < 0 ? .discount : .item,
                    description: String(words.map(\.description).joined(separator: " ").prefix(LineItem.maxDescription)), quantity: proven?.0,
                    unit: proven == nil ? nil : l.unit, unitPrice: proven?.1, amount: found.reading, taxCode: l.taxCode, evidence: l.line.evidence,
                    box: box, firstLine: l.line.index))
        }
        return items
    }

    /// Whether an item's description reads as going on onto the next line (ending in a hyphen or a joining word).
    static func continues(_ item: ItemReading?) -> Bool {
        guard let last = item?.description.split(separator: " ").last else { return false }
        return last.hasSuffix("-") || last.hasSuffix(",")
            || ["mit", "with", "de", "du", "et", "and", "und", "y", "dan", "&"].contains(last.lowercased())
    }

    /// The rate of each tax code the totals print ("A 19,00 % 10,00 1,60", "SR @ 6% 17.80 1.07", "B= 7%").
    static func codeRates(_ lines: ArraySlice<Line>) -> [String: String] {
        var out: [String: String] = [:]
        for line in lines {
            let words = line.text.split(separator: " ")
            guard
                let rate = line.amounts.first(where: \.isRate).map({ trimRate(Money.decimalString(minorUnits: $0.reading.minorUnits, digits: 2)) })
                    ?? integerPercent(in: line.text)
            else { continue }
            for w in words.prefix(3) {
                let code = w.trimmingCharacters(in: CharacterSet(charactersIn: "*=:()"))
                if (1...2).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isUppercase }), out[code] == nil {
                    out[code] = rate
                    break
                }
            }
        }
        return out
    }

    /// What the items' signed sum matches among the amounts printed below them: a subtotal, a total, or a total less
    /// the tax, tip, service charge and rounding the page prints.
    static func prove(_ items: [ItemReading], amounts: [AmountCandidate]) -> (ItemsCheck, Int64?) {
        var sum: Int64 = 0
        for item in items {
            let (s, overflow) = sum.addingReportingOverflow(item.amount.minorUnits)
            if overflow { return (.unproven, nil) }
            sum = s
        }
        guard sum != 0, let last = items.last else { return (.unproven, nil) }
        let lastPlace = (last.evidence.page, last.evidence.line)
        let printedBelow = amounts.filter { a in
            guard !a.computed, let e = a.evidence else { return false }
            return (e.page, e.line) > lastPlace
        }
        func below(_ role: AmountRole) -> [Int64] { printedBelow.filter { $0.role == role }.map(\.value.minorUnits) }
        // A service charge printed between the items and the total ("Service Chg 10% : 7.47").
        // Whatever role its other words gave it ("service Chg 10.00% : 7.47" read as a discount).
        func isCharge(_ a: AmountCandidate) -> Bool {
            a.role != .total && a.role != .subtotal && a.role != .tax && a.value.minorUnits > 0
                && a.evidence.map { itemChargeWords.any(in: TextFolding.fold($0.text)) } == true
        }
        let charges = printedBelow.filter(isCharge).map(\.value.minorUnits).reduce(0, +)
        let subtotals = below(.subtotal)
        if subtotals.contains(sum) { return (.subtotal, sum) }
        let totals = below(.total)
        let taxes = below(.tax).filter { $0 > 0 }
        let taxSum = taxes.reduce(0, +)
        let tips = below(.tip).reduce(0, +)
        let discounts = printedBelow.filter { $0.role == .discount && !isCharge($0) }.map { abs($0.value.minorUnits) }.reduce(0, +)
        let roundings = below(.rounding).filter { abs($0) <= largestRounding }
        // What the items make with the charges below them: with a tax (or all of them, or none: prices that include it),
        // tip, service charge and discount, before and after each rounding.
        func made(_ sum: Int64, withTax: Bool = false) -> Set<Int64> {
            var out: Set<Int64> = []
            // A tax is at most 30 % of what it is charged on (no rate is higher): a larger amount is another line's.
            let rated = Set(taxes + [taxSum]).filter { $0 > 0 && $0 <= sum / 10 * 3 }
            for tax in withTax ? rated : rated.union([0]) {
                let base = sum + tax + tips + charges - discounts
                out.insert(base)
                for r in roundings { out.formUnion(TotalScoring.rounded(base, by: r)) }
            }
            return out
        }
        let sums = made(sum)
        if totals.contains(sum) {
            // "5 Item(s) Total(MYR): 20.00" / "GST @ 6% : 1.20" / "Net Total(MYR): 21.20": a total the tax makes into a larger
            // one below it is the subtotal.
            // Not when an unlabelled amount stands between the two (more items: "Total 0% supplies" of a section).
            let withTax = made(sum, withTax: true)
            let first = printedBelow.first { $0.role == .total && $0.value.minorUnits == sum }?.evidence.map { ($0.page, $0.line) }
            for larger in printedBelow where larger.role == .total && larger.value.minorUnits > sum && withTax.contains(larger.value.minorUnits) {
                guard let first, let end = larger.evidence.map({ ($0.page, $0.line) }), first < end else { continue }
                let between = printedBelow.contains { a in
                    a.role == .lineItem && a.evidence.map { e in (e.page, e.line) > first && (e.page, e.line) < end } == true
                        && a.evidence.map { itemChargeWords.any(in: TextFolding.fold($0.text)) } != true
                }
                if !between { return (.subtotal, sum) }
            }
            return (.total, sum)
        }
        if let t = totals.first(where: { sums.contains($0) }) { return (.totalLessCharges, t) }
        // What was paid less the change given ("CASH 150.00" / "CHANGE 41.50", "Master 50.45" / "Change 0.00"): the total,
        // where the total's own amount was misread.
        for tendered in below(.tendered) {
            for change in below(.change) where change >= 0 && change < tendered && sums.contains(tendered - change) {
                return (.total, tendered - change)
            }
        }
        // A total whose label OCR misread ("Totd/Sales (inclusive of GST) : 190.80"): the sum printed below with no role. It
        // proves the items only where the record's total, chosen on its own evidence, is that amount (`provenOnRecord`).
        if printedBelow.contains(where: { $0.role == .lineItem && !isCharge($0) && $0.value.minorUnits == sum }) { return (.total, sum) }
        return (.unproven, nil)
    }
}
