import Foundation

enum TextFolding {
    /// Lower case without diacritics ("Rückgeld" → "ruckgeld", "À PAYER" → "a payer"), for keyword matching.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// True when `keyword` occurs in `folded` at word boundaries (letters/digits do not continue it on either side).
    static func contains(_ folded: String, keyword: String) -> Bool {
        var searchRange = folded.startIndex..<folded.endIndex
        while let r = folded.range(of: keyword, range: searchRange) {
            let beforeOK = r.lowerBound == folded.startIndex || !folded[folded.index(before: r.lowerBound)].isLetter
            let afterOK = r.upperBound == folded.endIndex || !folded[r.upperBound].isLetter
            if beforeOK && afterOK { return true }
            searchRange = folded.index(after: r.lowerBound)..<folded.endIndex
        }
        return false
    }

    static func firstKeyword(in folded: String, of keywords: [String]) -> String? {
        keywords.first { contains(folded, keyword: $0) }
    }
}

/// The words of the five languages that name an amount's role, a document kind, a date's role and so on.
/// All written folded (lower case, no diacritics), longest and most specific first within a list.
enum Keywords {
    /// Checked before `total`, because "Subtotal", "Total HT" and "Total TVA" contain "total".
    static let subtotal = [
        "subtotal", "sub total", "sub-total", "zwischensumme", "summe netto", "nettobetrag", "netto", "net amount",
        "total excl", "total ht", "montant ht", "sous-total", "sous total", "base imponible", "subtotal sin iva",
        "jumlah kecil", "jumlah sebelum", "amount before", "net",
    ]
    static let tax = [
        "mwst", "mw.st", "ust", "umsatzsteuer", "vat", "iva", "tva", "gst", "sst", "tax", "steuer", "cukai",
        "impuesto", "taxe",
    ]
    static let change = ["change", "ruckgeld", "wechselgeld", "zuruck", "cambio", "vuelto", "devuelto", "rendu", "monnaie rendue", "a rendre", "baki", "wang baki"]
    static let tendered = [
        "cash tendered", "tendered", "cash", "gegeben", "bar", "bargeld", "efectivo", "entregado", "especes", "recu",
        "tunai", "bayaran", "paid", "payment",
    ]
    static let tip = ["tip", "gratuity", "trinkgeld", "propina", "pourboire"]
    static let rounding = ["rounding", "round adj", "rundung", "redondeo", "arrondi", "pembundaran", "penggenapan"]
    static let discount = ["discount", "rabatt", "nachlass", "descuento", "remise", "reduction", "diskaun", "potongan"]
    /// Strong total words: the amount to pay, including tax.
    static let strongTotal = [
        "grand total", "total due", "amount due", "total to pay", "balance due", "total incl", "gesamtsumme",
        "gesamtbetrag", "zu zahlen", "endbetrag", "total ttc", "net a payer", "a payer", "importe total", "total a pagar",
        "jumlah besar", "jumlah perlu dibayar", "jumlah bayaran", "rechnungsbetrag",
    ]
    static let total = ["total", "summe", "gesamt", "betrag", "importe", "montant", "jumlah", "amount", "totaal", "sum"]

    static let dueDate = ["due", "falligkeit", "fallig", "zahlbar bis", "vencimiento", "echeance", "tarikh akhir", "valid until", "gultig bis", "expiry", "expires", "ablauf"]

    static let reference = [
        "receipt no", "receipt #", "receipt number", "invoice no", "invoice number", "invoice #", "bill no", "doc no",
        "bon-nr", "bon nr", "beleg-nr", "beleg nr", "belegnummer", "rechnungsnummer", "rechnung nr", "rechnungs-nr",
        "ticket n", "n° ticket", "no ticket", "facture n", "numero de facture", "factura n", "num. factura", "n. factura",
        "ticket no", "no. resit", "no resit", "resit no", "no. invois", "invois no", "transaction", "trans no", "ref",
    ]

    static let card = ["visa", "mastercard", "master card", "maestro", "amex", "american express", "girocard", "ec-karte", "ec karte", "kartenzahlung", "karte", "credit card", "debit card", "card", "tarjeta", "carte bancaire", "carte", "cb", "kad kredit", "kad debit", "contactless", "kontaktlos"]
    static let cash = ["cash", "bar", "bargeld", "efectivo", "especes", "tunai"]

    static let creditNote = ["credit note", "gutschrift", "avoir", "nota de credito", "nota kredit", "rechnungskorrektur"]
    static let invoice = ["invoice", "rechnung", "factura", "facture", "invois", "fattura"]

    /// Lines that are headers, not the merchant.
    static let notMerchant = [
        "receipt", "tax invoice", "invoice", "rechnung", "quittung", "beleg", "kassenbon", "kassenbeleg", "factura",
        "ticket", "facture", "resit", "welcome", "willkommen", "bienvenue", "bienvenido", "selamat datang", "thank",
        "danke", "gracias", "merci", "terima kasih", "copy", "kopie", "duplicate", "simplified", "customer",
    ]
    static let address = [
        "str.", "strasse", "straße", "street", "st.", "road", "rd", "jalan", "jln", "calle", "c/", "avenida", "avda",
        "av.", "rue", "avenue", "bd", "boulevard", "platz", "weg", "allee", "lot", "no.", "taman", "lorong", "plaza",
        "floor", "suite", "blvd", "lane", "ave", "place", "chemin", "paseo", "persiaran", "kawasan", "bandar",
    ]
    static let phone = ["tel", "tel.", "phone", "telefon", "telefono", "fax", "mobile", "hp", "tlf"]
    static let taxID = [
        "ust-id", "ust-idnr", "ust id", "ustid", "steuernr", "st.-nr", "st-nr", "vat no", "vat reg", "vat id", "gst no",
        "gst reg", "gst id", "sst no", "sst reg", "nif", "cif", "siret", "siren", "tva intra", "n° tva", "uid", "reg no",
        "co reg", "company no", "roc", "abn", "ein",
    ]
    static let legalForms = [
        "gmbh", "ag", "kg", "ohg", "e.k", "ug", "s.l", "s.l.", "sl", "s.a", "s.a.", "sa", "sarl", "s.a.r.l", "sas", "eurl",
        "sdn bhd", "sdn. bhd", "bhd", "berhad", "enterprise", "trading", "ltd", "ltd.", "limited", "llc", "inc", "inc.",
        "plc", "corp", "co.", "company", "s.p.a", "srl", "b.v", "bv", "ab", "oy", "e.v",
    ]
}
