/// The words of the five languages that name an amount's role, a document kind, a date's role and so on.
/// All written folded (lower case, no diacritics), longest and most specific first within a list.
public enum Keywords {
    /// Checked before `total`, because "Subtotal", "Total HT" and "Total TVA" contain "total".
    package static let subtotal: KeywordList = [
        "subtotal", "sub total", "sub-total", "zwischensumme", "summe netto", "nettobetrag", "netto", "net amount",
        "total excl", "total ht", "montant ht", "sous-total", "sous total", "base imponible", "subtotal sin iva",
        "jumlah kecil", "jumlah sebelum", "amount before", "nettosumme", "netto-summe", "nettowert", "warenwert", "importe neto",
        "base imposable", "montant hors taxes", "taxable amount", "taxable", "net", "neto"
    ]
    package static let tax: KeywordList = [
        "mwst", "mw.st", "ust", "umsatzsteuer", "vat", "iva", "tva", "gst", "sst", "tax", "steuer", "cukai",
        "impuesto", "taxe"
    ]
    package static let change: KeywordList = [
        "change", "ruckgeld", "wechselgeld", "zuruck", "cambio", "vuelto", "devuelto", "rendu", "monnaie rendue", "a rendre", "baki", "wang baki"
    ]
    package static let tendered: KeywordList = [
        "cash tendered", "tendered", "cash", "gegeben", "bar", "bargeld", "efectivo", "entregado", "especes", "recu",
        "tunai", "bayaran", "paid", "payment", "accepted", "visa", "mastercard", "master", "card", "credit card", "debit", "karte",
        "ec-karte", "girocard", "tarjeta", "carte", "cb", "received", "cash received", "amount received"
    ]
    /// Amounts the till advertises rather than charges: savings, points, vouchers for next time.
    package static let advert: KeywordList = [
        "you saved", "you save", "your savings", "total savings", "savings", "sie sparen", "ihre ersparnis", "gespart", "usted ahorra",
        "ahorro", "vous economisez", "economie", "anda jimat", "jimat", "points earned", "bonus points", "punkte", "puntos", "points"
    ]
    /// Cash handed out at the till on top of the purchase: paid with the card, but not spent.
    package static let cashback: KeywordList = [
        "cashback", "cash back", "cash-back", "auszahlung", "bargeldauszahlung", "retirada de efectivo", "retiro de efectivo", "retrait especes"
    ]
    package static let tip: KeywordList = ["tip", "gratuity", "trinkgeld", "propina", "pourboire"]
    package static let rounding: KeywordList = [
        "rounding", "round adj", "rounding adj", "round off", "round-off", "roundoff", "rounding off", "rundung", "rundungsdifferenz",
        "redondeo", "arrondi", "pembundaran", "penggenapan", "adjustment", "adj"
    ]
    package static let discount: KeywordList = ["discount", "rabatt", "nachlass", "descuento", "remise", "reduction", "diskaun", "potongan", "skonto"]
    /// Charges, allowances and prepayments: amounts that adjust a total, even on a line that says "Gesamtbetrag".
    package static let adjustments: KeywordList = [
        "zuschlage", "abschlage", "anzahlung", "anzahlungen", "prepaid", "prepayment", "acompte", "deposit", "already paid", "bereits bezahlt"
    ]
    /// Strong total words: the amount to pay, including tax.
    package static let strongTotal: KeywordList = [
        "grand total", "total due", "amount due", "total to pay", "balance due", "total incl", "gesamtsumme",
        "gesamtbetrag", "zu zahlen", "endbetrag", "total ttc", "net a payer", "a payer", "importe total", "total a pagar",
        "jumlah besar", "jumlah perlu dibayar", "jumlah bayaran", "rechnungsbetrag", "bruttosumme", "bruttobetrag",
        "total amount", "nett total", "net total", "grand", "total sales", "zahlbetrag", "total payable", "amount payable",
        "total rounded", "total (rounded)", "rounded total", "after adj", "after rounding", "total after", "endsumme", "total t.t.c",
        "net payable", "nett payable", "total inc", "amount to be paid", "total to be paid", "to be paid", "amount to pay",
        // A till's "Net Amt" under its "Gross Amt" is what was paid (an invoice's "Net amount" is before tax: not here).
        "net amt", "nett amt"
    ]
    package static let total: KeywordList = [
        "total", "summe", "gesamt", "betrag", "importe", "montant", "jumlah", "amount", "totaal", "sum", "rechnungssumme",
        "bruttosumme", "bruttobetrag", "gesamtbetrag", "grand", "nett total", "total amt", "amt"
    ]
    /// Words printed right after an amount that qualify it ("120,00 TTC").
    package static let qualifiers: Set<String> = ["ttc", "ht", "net", "netto", "brutto", "incl", "excl", "inkl", "exkl"]
    /// Total words that name the gross total of an invoice, as opposed to the amount still due.
    package static let grossTotal: KeywordList = [
        "total ttc", "ttc", "t.t.c", "bruttosumme", "bruttobetrag", "gesamtbetrag", "rechnungsbetrag", "grand total", "total incl", "incl", "inkl",
        "brutto", "gesamtsumme", "endsumme"
    ]
    /// Words that make a total line include the tax ("Total incl. GST", "Summe inkl. MwSt", "TOTAL TTC").
    package static let inclusive: KeywordList = [
        "inkl", "incl", "including", "includes", "include", "inclusive", "ttc", "t.t.c", "y compris", "iva incluido", "termasuk", "brutto",
        "con iva"
    ]
    /// "Inc" as a tax line abbreviates "included" ("INC 6% GST 1.62"); on other lines it may be a company's "Inc.".
    package static let includedShort: KeywordList = ["inc", "enthalten", "enth", "enth.", "darin", "incluida", "incluido", "comprise", "comprises"]
    /// Words that make a total line exclude the tax: it is a net amount ("Total HT", "Summe ohne USt.").
    package static let exclusive: KeywordList = [
        "ohne", "excl", "exkl", "excluding", "exclusive", "ht", "h.t", "hors taxe", "hors taxes", "sin iva", "sin impuestos", "netto", "net", "neto",
        "sebelum", "before tax", "before gst", "before vat", "pre-tax", "pretax", "vor steuer", "zzgl", "zuzuglich"
    ]
    /// Words that head a tax summary table ("GST Summary", "MwSt-Übersicht", "Récapitulatif TVA").
    package static let summary: KeywordList = [
        "summary", "ringkasan", "zusammenfassung", "ubersicht", "aufstellung", "recapitulatif", "recap", "resumen", "desglose", "tax code",
        "taxcode"
    ]
    /// Column headings of an item table ("Description Qty Price Total Tax"), which no tax summary has.
    package static let itemColumns: KeywordList = [
        "description", "desc", "item", "price", "u.price", "unit price", "artikel", "bezeichnung", "designation", "descripcion", "articulo",
        "produit", "barang", "harga"
    ]
    /// Words that make a number a count, not money ("Total Qty", "Item Count", "Anzahl Artikel").
    package static let count: KeywordList = [
        "qty", "quantity", "qtys", "items", "item count", "no. of items", "anzahl", "menge", "stuck", "pcs", "cantidad", "articles", "unit", "units"
    ]

    /// Words on the line of the transaction or issue date.
    package static let issueDate: KeywordList = [
        "date", "datum", "fecha", "tarikh", "rechnungsdatum", "invoice date", "belegdatum", "vom", "issued", "ausgestellt", "date de facture",
        "fecha de emision", "tgl"
    ]
    /// Words on the line of a date that is not the transaction date: due, delivery, order, validity, print.
    package static let otherDate: KeywordList = [
        "due", "falligkeit", "fallig", "zahlbar bis", "vencimiento", "echeance", "tarikh akhir", "valid", "gultig", "expiry", "expires",
        "exp", "ablauf", "liefer", "lieferdatum", "leistungsdatum", "leistungszeitraum", "delivery", "penghantaran", "livraison", "entrega",
        "bestellung", "bestelldatum", "auftrag", "auftragsdatum", "order date", "your order", "commande", "pedido", "version", "stylesheet",
        "printed", "gedruckt", "skonto", "bis",
        "period", "zeitraum", "warranty", "garantie",
        // The day to pay by: "Date limite de paiement", "Fecha límite de pago", "à régler avant le", "pagar antes del".
        "limite", "avant le", "antes del", "please pay by", "payable by", "zahlungsziel", "tarikh luput"
    ]

    /// Words of `otherDate` for a date that may lie years from the transaction date (validity, warranty, a print or
    /// version date): unlike a due, delivery or order date, its year says nothing about the transaction's.
    package static let farDate: Set<String> = [
        "valid", "gultig", "expiry", "expires", "exp", "ablauf", "version", "stylesheet", "printed", "gedruckt", "warranty", "garantie"
    ]

    /// Words naming the document whose number is the reference ("Rechnung", "Invoice", "Bon", …); compounds
    /// ending in one count too ("Handelsrechnung").
    package static let documentWords: KeywordList = [
        "rechnung", "rechnungsnummer", "rechnungs", "invoice", "inv", "facture", "factura", "fattura", "invois", "bill", "receipt",
        "beleg", "belegnummer", "bon", "ticket", "resit", "quittung", "kassenbon", "document", "doc", "transaction", "trans",
        "trn", "ref", "reference", "referenz", "gutschrift", "avoir", "credit", "num", "numero", "order", "orden"
    ]
    /// The words for the document itself (its number is the reference), as opposed to orders or rides.
    package static let ownDocumentWords = [
        "rechnung", "invoice", "facture", "factura", "invois", "receipt", "beleg", "quittung", "resit", "bon", "ticket", "gutschrift", "avoir"
    ]
    /// Words between a document number and its date: "Rechnung Nr. 4711 vom 14.03.2026".
    package static let datePrepositions: Set<String> = ["vom", "du", "dated", "del", "bertarikh"]
    /// "n2" is how OCR reads "nº".
    package static let numberMarkers = ["nr", "no", "n°", "n", "n*", "n2", "num", "number", "nummer", "#", "numero", "nro", "n.o", "nº", "bil"]
    /// Lines about another document's number: orders, contracts, customers, deliveries.
    package static let otherReference: KeywordList = [
        "commande", "purchase order", "bestell", "bestellung", "pedido", "contrat", "kassen", "kasse", "filial", "artikel", "tisch", "contract",
        "vertrag", "kunden", "kundennummer",
        "customer", "client", "livraison", "delivery", "lieferschein", "reception", "auftrag", "projekt", "project", "tva", "vat",
        "gst", "ust", "steuer", "iban", "table", "member", "account", "konto", "voucher", "approval", "auth", "terminal"
    ]
    package static let card: KeywordList = [
        "visa", "mastercard", "master card", "maestro", "amex", "american express", "girocard", "ec-karte", "ec karte", "kartenzahlung", "karte",
        "credit card", "debit card", "card", "tarjeta", "carte bancaire", "carte", "cb", "kad kredit", "kad debit", "contactless", "kontaktlos"
    ]
    package static let cash: KeywordList = ["cash", "bar", "bargeld", "efectivo", "especes", "tunai"]

    /// The names of Malaysia's two sales taxes (`ReceiptParser.taxInForce`).
    package static let gstOrSST: KeywordList = ["gst", "sst"]
    /// Card schemes as receipts print them, longest first, and the name each is recorded as.
    package static let cardSchemeNames: [String: String] = [
        "mastercard": "MASTERCARD", "master card": "MASTERCARD", "master": "MASTERCARD", "mc": "MASTERCARD", "visa": "VISA",
        "american express": "AMEX", "amex": "AMEX", "maestro": "MAESTRO", "girocard": "GIROCARD", "ec-karte": "GIROCARD",
        "unionpay": "UNIONPAY", "union pay": "UNIONPAY", "mydebit": "MYDEBIT", "jcb": "JCB", "diners": "DINERS", "discover": "DISCOVER"
    ]
    package static let cardSchemes = KeywordList(cardSchemeNames.keys.sorted { ($0.count, $0) > ($1.count, $1) })

    // Phone payment screens (`ReceiptParser+Screens`), English and Malay.
    package static let screenSucceeded: KeywordList = [
        "payment successful", "transaction successful", "transfer successful", "successful", "success", "pembayaran berjaya", "berjaya",
        "you paid", "paid", "completed", "approved", "selesai"
    ]
    /// Status phrases only an app's screen shows (a till prints "Thank you", a card slip "APPROVED").
    package static let screenStatusPhrases: KeywordList = [
        "payment successful", "transaction successful", "transfer successful", "payment failed", "transaction failed", "pembayaran berjaya",
        "transaksi berjaya", "pemindahan berjaya", "pembayaran gagal", "you paid", "payment pending", "reload successful"
    ]
    package static let screenFailed: KeywordList = [
        "payment failed", "transaction failed", "failed", "unsuccessful", "tidak berjaya", "gagal", "declined", "rejected", "ditolak"
    ]
    package static let screenPending: KeywordList = ["pending", "processing", "dalam proses", "sedang diproses", "menunggu", "belum selesai"]
    package static let screenRefund: KeywordList = ["refund", "refunded", "bayaran balik", "pemulangan wang", "dikembalikan"]
    package static let screenOwnTransfer: KeywordList = [
        "own account", "own accounts", "between my accounts", "to my account", "akaun sendiri", "ke akaun sendiri"
    ]
    package static let screenTopUp: KeywordList = ["reload", "top up", "top-up", "topup", "tambah nilai", "add money", "cash in", "isi semula"]
    package static let screenPoints: KeywordList = ["points", "poin", "mata ganjaran", "rewards", "ganjaran", "vouchers", "baucar"]
    package static let screenBalance: KeywordList = ["available balance", "wallet balance", "balance", "baki", "baki tersedia"]
    /// Labels before the payee ("Kepada", "Paid to", "Merchant").
    package static let screenPayee = [
        "paid to", "pay to", "transfer to", "merchant name", "merchant", "recipient name", "recipient", "payee", "beneficiary name",
        "beneficiary", "kepada", "dibayar kepada", "nama penerima", "penerima", "nama peniaga", "peniaga", "to", "biller name", "biller",
        "pembekal", "nama pembekal", "nama biller", "original merchant", "peniaga asal"
    ]
    package static let screenPaidFrom = [
        "paid from", "pay from", "payment method", "paid with", "pay with", "debit from", "from account", "from", "dari", "kaedah pembayaran",
        "sumber dana", "dibayar dari", "dari akaun"
    ]
    package static let screenRecipientBank = [
        "recipient bank", "recipient's bank", "beneficiary bank", "receiving bank", "to bank", "bank penerima", "bank penerima wang"
    ]
    package static let screenReference = [
        "reference no", "reference no.", "reference number", "reference id", "reference", "ref no", "ref. no", "ref no.", "ref id",
        "no. rujukan", "no rujukan", "nombor rujukan", "rujukan", "transaction id", "transaction no", "transaction no.", "transaction number",
        "txn id", "id transaksi", "no. transaksi", "no transaksi", "duitnow ref", "order id", "order no", "refund id", "refund no",
        "refund reference", "id bayaran balik"
    ]
    package static let screenAmount = [
        "amount", "total amount", "payment amount", "amount paid", "you paid", "total", "jumlah", "jumlah bayaran", "amaun", "jumlah dibayar"
    ]
    /// The heading of a home screen's list of other payments.
    package static let screenRecentList: KeywordList = [
        "recent transactions", "recent transaction", "recent activity", "transaksi terkini", "aktiviti terkini", "sejarah terkini"
    ]
    /// Words of a screen's title or buttons, never its payee ("Transaction Details", "Butiran Transaksi", "Share Receipt").
    package static let screenTitleWords: KeywordList = [
        "details", "detail", "receipt", "resit", "transaction", "transaksi", "butiran", "payment", "pembayaran", "transfer",
        "pemindahan", "history", "sejarah", "back", "done", "share", "kongsi", "selesai", "duitnow", "wallet", "ewallet", "qr"
    ]
    /// Lines whose amount is not the payment's: cashback, points, a balance, an offer.
    package static let screenNotTheAmount: KeywordList = [
        "cashback", "cash back", "points", "pts", "poin", "balance", "baki", "earn", "get", "save", "off", "voucher", "baucar", "promo",
        "reward", "rewards", "ganjaran", "rebate", "up to", "min spend", "min. spend", "daily limit", "limit", "had"
    ]
    /// Names apps and banks print on their screens, and the provider each stands for.
    package static let screenProviders: [String: String] = [
        "touch 'n go": "Touch 'n Go eWallet", "touch n go": "Touch 'n Go eWallet", "tng ewallet": "Touch 'n Go eWallet",
        "tng": "Touch 'n Go eWallet", "grabpay": "GrabPay", "grab pay": "GrabPay", "boost": "Boost", "shopeepay": "ShopeePay",
        "shopee pay": "ShopeePay", "mae": "MAE (Maybank)", "maybank2u": "Maybank", "maybank": "Maybank", "cimb octo": "CIMB OCTO",
        "octo": "CIMB OCTO", "cimb clicks": "CIMB", "cimb": "CIMB", "rhb": "RHB", "public bank": "Public Bank", "pbe": "Public Bank",
        "hong leong": "Hong Leong Bank", "hlb connect": "Hong Leong Bank", "apple pay": "Apple Pay", "google pay": "Google Pay",
        "bigpay": "BigPay", "ambank": "AmBank", "bank islam": "Bank Islam", "bsn": "BSN", "alliance bank": "Alliance Bank",
        "affin": "Affin Bank", "setel": "Setel"
    ]
    /// Malaysian banks by their BIC, as a DuitNow reference carries the paying bank's after its date
    /// ("20260118MBBEMYKL…"): the app that paid where its name is only in a logo.
    package static let bankBICs: [String: String] = [
        "MBBEMYKL": "Maybank", "CIBBMYKL": "CIMB", "PBBEMYKL": "Public Bank", "RHBBMYKL": "RHB", "HLBBMYKL": "Hong Leong Bank",
        "ARBKMYKL": "AmBank", "BIMBMYKL": "Bank Islam", "BKRMMYKL": "Bank Rakyat", "PHBMMYKL": "Affin Bank", "MFBBMYKL": "Alliance Bank",
        "UOVBMYKL": "UOB", "OCBCMYKL": "OCBC", "HBMBMYKL": "HSBC", "SCBLMYKX": "Standard Chartered", "BSNAMYK1": "BSN"
    ]
    package static let screenProviderNames = KeywordList(screenProviders.keys.sorted { ($0.count, $0) > ($1.count, $1) })

    /// Paper that proves no purchase: quotes, statements, balance enquiries, pro-forma invoices.
    package static let notAPurchase: KeywordList = [
        "quotation", "quote", "estimate", "angebot", "kostenvoranschlag", "devis", "presupuesto", "sebut harga", "statement of account",
        "kontoauszug", "releve de compte", "extracto", "penyata akaun", "balance enquiry", "balance inquiry", "pro forma", "proforma",
        "not a tax invoice", "kein beleg"
    ]
    /// Keywords before the seller's VAT or tax number.
    public static let vatID: KeywordList = [
        "ust-idnr", "ust.-id.-nr", "ust-id", "ust.-id", "ust id", "ustid", "umsatzsteuer-id", "steuernummer", "steuernr", "st.-nr", "st-nr",
        "vat reg no", "vat reg", "vat no", "vat number", "vat id", "gst reg no", "gst reg", "gst no", "gst id", "sst reg no", "sst no",
        "sst id", "tax id", "tax no", "n° tva", "tva intracom", "tva intra", "tva", "nif", "cif", "mwst-nr", "mwst nr", "uid-nr", "uid"
    ]
    /// Keywords before a company registration number (the merchant keys read it as a tax ID).
    public static let companyRegistration: KeywordList = [
        "co. reg. no", "co.reg.no", "co. reg", "co.reg", "co reg", "co-reg", "company reg", "company no", "co. no", "co no", "roc no", "roc",
        "reg. no", "reg no", "siret", "siren", "no. syarikat", "no syarikat"
    ]
    package static let creditNote: KeywordList = ["credit note", "gutschrift", "avoir", "nota de credito", "nota kredit", "rechnungskorrektur"]
    package static let invoice: KeywordList = ["invoice", "rechnung", "factura", "facture", "invois", "fattura"]

    /// Lines that are headers, not the merchant.
    package static let notMerchant: KeywordList = [
        "receipt", "tax invoice", "invoice", "rechnung", "quittung", "beleg", "kassenbon", "kassenbeleg", "factura",
        "ticket", "facture", "resit", "welcome", "willkommen", "bienvenue", "bienvenido", "selamat datang", "thank",
        "danke", "gracias", "merci", "terima kasih", "copy", "kopie", "duplicate", "simplified", "customer",
        "cash bill", "bill", "cashier", "counter", "table", "order", "visualisierung", "stylesheet", "page", "seite",
        "salesperson", "logo", "date", "datum", "fecha", "tarikh", "time", "zeit", "heure",
        "qty", "description", "item", "items", "price", "ref", "ref.", "no.", "unit", "uom", "amount", "total",
        // A greeting without the name, a branch or till ("Vielen Dank für Ihren Besuch", "Filiale 1234", "Kasse 2").
        "vielen dank", "dank", "besuch", "einkauf", "filiale", "kasse",
        // An item table's column headings ("Art.-Nr. Bezeichnung EUR", "Désignation Qté", "Descripción Cantidad").
        "bezeichnung", "art.-nr", "art.-nr.", "artikel", "menge", "designation", "descripcion", "cantidad", "keterangan", "kuantiti",
        // An order's eat-in or take-away mark ("*** AUSSER HAUS ***", "Bestellung 347", "Dine in").
        "bestellung", "ausser haus", "im haus", "zum mitnehmen", "take away", "takeaway", "dine in", "eat in", "sur place", "a emporter",
        "para llevar", "bungkus",
        // A payment screen's titles ("Transaction Details", "You paid", "Pembayaran Berjaya").
        "transaction details", "transaction history", "transaction successful", "payment details", "payment successful",
        "transfer details", "transfer successful", "you paid", "butiran transaksi", "sejarah transaksi", "pembayaran berjaya",
        "pemindahan berjaya"
    ]
    /// Headings of the buyer's block on an invoice: the names below them are not the merchant.
    package static let buyerBlock: KeywordList = [
        "kaufer", "buyer", "bill to", "billed to", "sold to", "ship to", "rechnungsempfanger", "leistungsempfanger", "kunde",
        "customer", "client", "adresse du client", "destinataire", "cliente", "facturar a", "pembeli", "lieferanschrift"
    ]
    /// Headings of the seller's block.
    package static let sellerBlock: KeywordList = [
        "verkaufer", "seller", "vendeur", "lieferant", "supplier", "vendedor", "penjual", "rechnungssteller", "issuer"
    ]
    /// Words that make a line a business name even without a legal form.
    package static let businessWords: KeywordList = [
        "trading", "enterprise", "enterprises", "restaurant", "restoran", "store", "stores", "mart", "market", "supermarket",
        "minimarket", "shop", "kedai", "cafe", "bakery", "hardware", "pharmacy", "farmasi", "hotel", "station", "services",
        "stationery", "bookstore", "book", "food", "foods", "marketing", "motor", "electrical", "machinery", "supply",
        "supplies", "centre", "center", "bistro", "bar", "kitchen", "baeckerei", "backerei", "metzgerei", "apotheke",
        "boulangerie", "pharmacie", "panaderia", "farmacia", "ferreteria", "supermercado", "tienda", "magasin", "markt"
    ]
    /// Greetings that name the shop right after them.
    package static let greetingBeforeName: KeywordList = [
        "shopping at", "shopping with", "for visiting", "welcome to", "thanks for choosing", "thank you for choosing",
        "dining at", "dining with", "einkauf bei", "besuch bei", "willkommen bei", "visite chez", "achats chez", "bienvenue chez",
        "merci d'avoir choisi", "bienvenido a", "bienvenidos a", "gracias por su compra en", "gracias por tu compra en", "gracias por visitar",
        "selamat datang ke", "selamat datang di", "terima kasih kerana membeli di", "berbelanja di", "membeli-belah di",
        "membeli belah di"
    ]
    /// Slogans and greetings printed near the top that are not names.
    package static let slogan: KeywordList = [
        "thank you", "welcome", "please", "come again", "visit us", "since", "tax invoice", "cash bill", "official receipt",
        "shopping hours", "opening hours", "hours", "open daily", "cashier", "cashter", "user", "member", "served by",
        "pay by", "paid by", "payment", "pay", "change", "balance", "dine in", "eat in", "take away", "takeaway", "pax",
        "carry out", "delivery"
    ]
    /// The towns and regions among the address words: a place name alone beside a business word is a branch's name
    /// ("OBI Markt Hamburg-Harburg", "REWE Markt Leverkusen"), not its address.
    package static let placeNames: KeywordList = [
        "johor", "selangor", "kedah", "perak", "pahang", "kelantan", "terengganu", "melaka", "malacca", "sabah", "sarawak",
        "penang", "pulau pinang", "kuala lumpur", "putrajaya", "labuan", "negeri sembilan", "perlis",
        "berlin", "munchen", "hamburg", "paris", "madrid", "barcelona", "london"
    ]
    /// Who served at the till ("Es bediente Sie: Frau Lehmann", "Served by Anna", "Le atendió"): neither the phrase nor
    /// the name after it is the shop's.
    package static let servedBy: KeywordList = [
        "es bediente sie", "es bediente", "sie wurden bedient", "bedient von", "ihr kassierer", "kassierer", "kassiererin", "bediener",
        "served by", "you were served", "your cashier", "le atendio", "atendido por", "le atiende", "vous avez ete servi",
        "servi par", "caissier", "caissiere", "juruwang", "dilayan oleh"
    ]
    /// Titles a till receipt prints though it names an invoice ("TAX INVOICE" on a Malaysian till roll, "Invois Cukai",
    /// "Factura simplificada", "Facture simplifiée").
    package static let tillReceiptTitles = ["tax invoice", "invois cukai", "simplified", "simplificada", "simplifiee"]
    public static let address: KeywordList = [
        "johor", "selangor", "kedah", "perak", "pahang", "kelantan", "terengganu", "melaka", "malacca", "sabah", "sarawak",
        "penang", "pulau pinang", "kuala lumpur", "putrajaya", "labuan", "negeri sembilan", "perlis", "laman", "kampung",
        "berlin", "munchen", "hamburg", "paris", "madrid", "barcelona", "london", "street", "strasse", "lrg", "kg", "bt",
        "park", "industrial", "inds", "ind", "seksyen", "section",
        "str.", "strasse", "straße", "street", "st.", "road", "rd", "jalan", "jln", "calle", "c/", "avenida", "avda",
        "av.", "rue", "avenue", "bd", "boulevard", "platz", "weg", "allee", "lot", "no.", "taman", "lorong", "plaza",
        "floor", "suite", "blvd", "lane", "ave", "place", "chemin", "paseo", "persiaran", "kawasan", "bandar",
        // Malaysian states' honorifics ("Selangor Darul Ehsan"), rural districts, highways.
        "darul", "mukim", "autoroute", "carretera", "autopista"
    ]
    package static let phone: KeywordList = ["tel", "tel.", "phone", "telefon", "telefono", "fax", "mobile", "hp", "tlf"]
    package static let taxID: KeywordList = [
        "ust-id", "ust-idnr", "ust id", "ustid", "steuernr", "st.-nr", "st-nr", "vat no", "vat reg", "vat id", "gst no",
        "gst reg", "gst id", "sst no", "sst reg", "nif", "cif", "siret", "siren", "tva intra", "n° tva", "uid", "reg no",
        "co reg", "company no", "roc", "abn", "ein"
    ]
    /// The legal forms only a company has (not "trading", "enterprise", "company" or "co.", which shop names print too):
    /// a line with one below the header is the imprint's legal name.
    package static let companyForms: KeywordList = [
        "gmbh", "ag", "kg", "ohg", "e.k", "e.k.", "ug", "se", "sarl", "sas", "eurl", "s.l", "s.l.", "s.a", "s.a.", "s.a.r.l", "ltd",
        "ltd.", "limited", "sdn bhd", "sdn. bhd", "bhd", "berhad", "plc", "inc", "inc.", "llc", "b.v", "s.p.a", "srl"
    ]
    public static let legalForms: KeywordList = [
        "gmbh", "ag", "kg", "ohg", "e.k", "ug", "s.l", "s.l.", "sl", "s.a", "s.a.", "sa", "sarl", "s.a.r.l", "sas", "eurl",
        "sdn bhd", "sdn. bhd", "bhd", "berhad", "s/b", "sb", "enterprise", "trading", "ltd", "ltd.", "limited", "llc", "inc", "inc.",
        "plc", "corp", "co.", "company", "s.p.a", "srl", "b.v", "bv", "ab", "oy", "e.v"
    ]
}
