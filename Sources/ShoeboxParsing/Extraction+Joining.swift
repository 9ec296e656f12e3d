public import ShoeboxCore
internal import ShoeboxReading

extension Extraction {
    /// The candidates of two readings of the same document (two OCR passes) together, for the fields named in
    /// `fields` (nil: all). A value both readings found gains `agreement` on each of its candidates:
    /// independent passes agreeing is evidence. Fields not named keep this reading's candidates: a further pass
    /// is for what was uncertain, and its noise (a "€" read into a faint line) must not unsettle a field that
    /// was clear.
    public func union(_ other: Extraction, agreement: Double = 0.05, fields: Set<Field>? = nil) -> Extraction {
        func join<V, R>(_ a: [Candidate<V, R>], _ b: [Candidate<V, R>], _ field: Field) -> [Candidate<V, R>] {
            guard fields?.contains(field) ?? true else { return a }
            let inA = Set(a.filter { $0.score > 0 }.map(\.value))
            let inB = Set(b.filter { $0.score > 0 }.map(\.value))
            return (a + b).map { c in
                guard c.score > 0, inA.contains(c.value), inB.contains(c.value) else { return c }
                var c = c
                guard c.checks.insert(.bothOCRPasses).inserted else { return c }
                c.score += agreement
                c.notes.append(Check.bothOCRPasses.note!)
                return c
            }
        }
        var out = self
        out.amounts = join(amounts, other.amounts, .total)
        out.dates = join(dates, other.dates, .date)
        if fields?.contains(.date) ?? true {
            out.unreadDates += other.unreadDates
            out.joinDateDoubts(other)
        }
        out.merchants = join(merchants, other.merchants, .merchant)
        out.currencies = join(currencies, other.currencies, .currency)
        out.references = join(references, other.references, .referenceNumber)
        out.sellerTaxIDs = join(sellerTaxIDs, other.sellerTaxIDs, .sellerTaxID)
        out.paymentMethods = join(paymentMethods, other.paymentMethods, .paymentMethod)
        if out.taxes.isEmpty && (fields?.contains(.total) ?? true) { out.taxes = other.taxes }
        out.card = card ?? other.card
        return out
    }

    /// The candidates of the second reader's reading joined to this one (tesseract's). `second` is the parse of
    /// the same pages with some lines read again (`OCRLine.reader` is `.secondReader`), `reread` where those lines
    /// stand. Only what the second reader read joins: candidates from its lines, and values computed from them that
    /// this reading lacks. On a line both read, a value both found is evidence (`agreement` and `.bothReaders` on
    /// this reading's candidate); a value only one of them found there loses `disagreement` and is marked
    /// `.readersDisagree`. Values from lines tesseract read and the second reader did not are as they were.
    public func joining(secondReading second: Extraction, reread: [LinePlace], agreement: Double = 0.03, disagreement: Double = 0.05)
        -> Extraction
    {
        // `same`: the part of a value both readers must read alike (an amount's number, not the currency mark the
        // second reader's character set lacks; a name's letters and digits).
        func join<V, R, K: Hashable>(_ a: [Candidate<V, R>], _ b: [Candidate<V, R>], _ same: (V) -> K) -> [Candidate<V, R>] {
            let known = Set(a.map { same($0.value) })
            // Computed values (tendered − change) are no reading of their line: they join when new, and neither
            // agree nor disagree.
            let fromSecond = b.filter { c in c.computed ? !known.contains(same(c.value)) : c.evidence?.source == .secondReader }
            func onLine(_ list: [Candidate<V, R>], _ e: Evidence) -> Set<K> {
                Set(
                    list.filter { c in c.score > 0 && !c.computed && c.evidence.map { LinePlace.sameLine(e, $0) } == true }.map { same($0.value) })
            }
            func judged(_ c: Candidate<V, R>, other: [Candidate<V, R>]) -> Candidate<V, R> {
                guard c.score > 0, !c.computed, let e = c.evidence, reread.contains(where: { $0.holds(e) }) else { return c }
                let there = onLine(other, e)
                var c = c
                if there.contains(same(c.value)) {
                    if c.checks.insert(.bothReaders).inserted {
                        c.score += agreement
                        c.notes.append(Check.bothReaders.note!)
                    }
                } else if !there.isEmpty, c.checks.insert(.readersDisagree).inserted {
                    c.score = max(0.01, c.score - disagreement)
                    c.notes.append(Check.readersDisagree.note!)
                }
                return c
            }
            let first = a.map { judged($0, other: fromSecond) }
            // A value both read on one line is kept once, as tesseract's candidate with the agreement.
            let added = fromSecond.filter { c in
                guard !c.computed, let e = c.evidence else { return true }
                return !onLine(a, e).contains(same(c.value))
            }.map { judged($0, other: a) }
            return first + added
        }
        var out = self
        out.amounts = join(amounts, second.amounts) { $0.minorUnits }
        out.dates = join(dates, second.dates) { $0 }
        // A name the two readers read apart in a few letters: joined word by word (`joinedNameWords`).
        out.merchants = Extraction.joinedNameWords(join(merchants, second.merchants) { ReceiptParser.normalizedMerchant($0) })
        out.currencies = join(currencies, second.currencies) { $0 }
        out.references = join(references, second.references) { ReceiptParser.normalizedMerchant($0) }
        out.sellerTaxIDs = join(sellerTaxIDs, second.sellerTaxIDs) { ReceiptParser.normalizedMerchant($0) }
        out.paymentMethods = join(paymentMethods, second.paymentMethods) { $0 }
        if out.taxes.isEmpty { out.taxes = second.taxes }
        // The card paid with: the second reader's reading of it where it read one (it misreads masks less).
        out.card = second.card ?? card
        // The items of the reading whose sum the page proves; tesseract's when neither's is.
        if out.items?.check.proven != true, let items = second.items, items.check.proven { out.items = items }
        // A date shape tesseract read as no date ("17-66-13") on a line the second reader read as a date is
        // explained: it no longer makes the date doubtful.
        let readAsDates = second.dates.compactMap { $0.evidence }.filter { $0.source == .secondReader }
        out.unreadDates = unreadDates.filter { e in !readAsDates.contains { LinePlace.sameLine(e, $0) } }
        out.joinDateDoubts(second)
        out.preferDayBothReadersRead(secondUnread: second.unreadDates.filter { $0.source == .secondReader })
        out.proposeTotalsOneDigitOff()
        return out
    }

    /// Keys (`ReceiptParser.key`: page × 100 000 + line) of the lines a candidate of a recorded field stands on:
    /// every amount but the line items, dates (and date shapes that read as no date), names, reference numbers, tax IDs.
    public var evidenceLines: Set<Int> {
        Set(evidence(for: [.total, .date, .merchant, .referenceNumber, .sellerTaxID]).map(ReceiptParser.key))
    }
}
