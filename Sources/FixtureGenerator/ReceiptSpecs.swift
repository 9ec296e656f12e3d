// The contents of every fixture. Amounts are in cents; totals, tax and change are computed
// (see `Totals`), never typed in, so they always add up.

/// Receipts in `Fixtures/receipts/`.
let receiptFixtures: [Receipt] = [
    Receipt(
        id: "eng-gb-grocer", language: .eng, font: "DejaVu Sans Mono",
        note: "UK supermarket, VAT included, contactless card",
        merchant: "Harbour Lane Grocers Ltd",
        header: ["12 Harbour Lane, Bristol", "BS1 4RN", "Tel: 0117 496 0321", "VAT No: GB 123 4567 89"],
        date: Day(2026, 3, 14), dateStyle: .slashDMY, time: "18:42",
        extraInfo: "Till 4  Op 1187",
        money: .pound, pricing: .gross, taxRates: [.vat20],
        items: [
            Item("Orange Juice 1L", 185), Item("Sourdough Loaf", 240), Item("Washing Up Liquid", 120),
            Item("Cheddar 400g", 375, quantity: 2), Item("Bananas 5pk", 95)
        ],
        labels: .eng.with(subtotal: "Net"),
        payment: .card(detail: "VISA CONTACTLESS **** 4821")),

    Receipt(
        id: "eng-us-hardware", language: .eng, font: "Liberation Mono",
        note: "US sales tax added on top; cash tendered $50.00 is the largest amount, not the total",
        merchant: "Blue Ridge Hardware Inc",
        header: ["418 Main Street", "Asheville, NC 28801", "(828) 555-0142"],
        date: Day(2025, 10, 21), dateStyle: .slashMDY, time: "4:17 PM",
        reference: ("Trans #", "30418"),
        money: .dollar, pricing: .net, taxRates: [TaxRate(label: "Sales Tax", basisPoints: 725)],
        items: [
            Item("Wood Screws #8", 749), Item("Duct Tape 2in", 599), Item("Sandpaper 120", 329, quantity: 2),
            Item("LED Bulb 60W", 499)
        ],
        labels: .eng.with(cash: "Cash Tendered", change: "Change Due", thanks: "Thank you! Come again"),
        payment: .cash(tenderedCents: 5000)),

    Receipt(
        id: "eng-invoice-textpdf", language: .eng, kind: .invoice, layout: .invoice(.a4), format: .textPDF,
        font: "Liberation Sans",
        note: "born-digital PDF with a real text layer; net + VAT 20%; payment due later",
        merchant: "Northwind Web Services Ltd",
        header: ["Unit 7, Canal Wharf, Leeds LS11 5PS", "Tel: 0113 496 0800", "VAT Reg. No: GB 987 6543 21", "Due date: 28 Dec 2025"],
        title: "INVOICE",
        date: Day(2025, 11, 28), dateStyle: .englishMonth, dateLabel: "Invoice date:",
        reference: ("Invoice No:", "INV-2025-0187"),
        money: .pound, pricing: .net, taxRates: [.vat20],
        items: [
            Item("Website maintenance (November)", 45_000), Item("Hosting, annual plan", 24_000),
            Item("Consulting hours", 8_500, quantity: 6), Item("SSL certificate", 4_900)
        ],
        labels: .eng.with(total: "TOTAL DUE", thanks: "Thank you for your business."),
        payment: .due(note: "Payment due within 30 days to sort code 20-00-00, account 12345678.")),

    Receipt(
        id: "deu-supermarkt", language: .deu, font: "DejaVu Sans Mono",
        note: "two VAT rates (7% and 19%), date with time, receipt number",
        merchant: "Frischmarkt Berger GmbH",
        header: ["Hauptstraße 12, 10115 Berlin", "Tel. 030 12345678", "USt-IdNr. DE287654321"],
        date: Day(2026, 3, 14), dateStyle: .dotted, time: "18:42",
        reference: ("Bon-Nr.", "4711"), extraInfo: "Kasse 2  Bed. 07",
        money: .euroDE, pricing: .gross, taxRates: [.mwst7, .mwst19],
        items: [
            Item("Vollmilch 3,5%", 119), Item("Bio Eier 10 St.", 349), Item("Spülmittel", 179, tax: 1),
            Item("Apfelsaft 1 l", 129, quantity: 2, tax: 1), Item("Kaffee 500 g", 699)
        ],
        labels: .deu,
        payment: .card(detail: "kontaktlos  Beleg 0815")),

    Receipt(
        id: "deu-baeckerei", language: .deu, format: .jpeg, font: "FreeSans",
        scan: ScanLook(paper: 238, noise: 6, rotation: 1.2),
        note: "phone-photo look (gray paper, noise, 1.2° rotation); no net line; paid 20,00 cash",
        merchant: "Bäckerei Sonnenschein GmbH",
        header: ["Kastanienallee 7, 10435 Berlin", "Tel. 030 4402117"],
        date: Day(2026, 2, 3), dateStyle: .dotted, time: "07:54",
        money: .euroSymbolDE, pricing: .gross, taxRates: [.mwst7, .mwst19],
        items: [
            Item("Brötchen", 45, quantity: 4), Item("Croissant", 160), Item("Vollkornbrot 750 g", 420),
            Item("Kaffee to go", 280, tax: 1)
        ],
        labels: .deu.with(total: "ZU ZAHLEN", thanks: "Einen schönen Tag!"), showSubtotal: false,
        payment: .cash(tenderedCents: 2000)),

    Receipt(
        id: "deu-ch-elektro", language: .deu, font: "Liberation Sans",
        note: "Swiss francs with 1'234.50 grouping, MWST 8.1%",
        merchant: "Elektro Alpen AG",
        header: ["Bahnhofstrasse 21, 8001 Zürich", "Tel. 044 555 21 90", "MWST CHE-123.456.789"],
        date: Day(2025, 9, 6), dateStyle: .dotted, time: "11:15",
        reference: ("Beleg-Nr.", "20250906-0193"),
        money: .franc, pricing: .gross, taxRates: [TaxRate(label: "MWST", basisPoints: 810)],
        items: [
            Item("Kaffeevollautomat", 119_900), Item("Entkalker", 995, quantity: 2),
            Item("Reinigungstabletten", 1450), Item("Garantie 2 Jahre", 7900)
        ],
        labels: .deu.with(total: "TOTAL", card: "Mastercard"),
        payment: .card(detail: "**** **** **** 1184")),

    Receipt(
        id: "deu-rechnung-2seiten", language: .deu, kind: .invoice, layout: .invoice(.a5), format: .imagePDF,
        font: "DejaVu Serif",
        note: "two-page image-only PDF: items continue on page 2, totals on page 2",
        merchant: "Baumarkt Krämer GmbH",
        header: ["Industriestraße 40, 04109 Leipzig", "Tel. 0341 987654", "USt-IdNr. DE812345678", "Zahlbar bis 06.05.2026"],
        title: "RECHNUNG",
        date: Day(2026, 4, 22), dateStyle: .dotted, dateLabel: "Datum:",
        reference: ("Rechnungsnr.", "R-2026-00318"),
        money: .euroDE, pricing: .gross, taxRates: [.mwst19],
        items: [
            Item("Akkuschrauber 18 V", 8999), Item("Bohrer-Set 10-tlg.", 2495),
            Item("Wandfarbe weiß 10 l", 3990, quantity: 4), Item("Malerrolle 25 cm", 649, quantity: 2),
            Item("Abdeckfolie 4x5 m", 399), Item("Schrauben-Sortiment", 1249)
        ],
        itemsOnFirstPage: 3,
        labels: .deu.with(total: "GESAMT", card: "EC-Karte"),
        payment: .card(detail: nil)),

    Receipt(
        id: "spa-supermercado", language: .spa, font: "DejaVu Sans",
        note: "factura simplificada, IVA 10% and 21%, paid 50,00 cash",
        merchant: "Supermercados Brisa S.L.",
        header: ["C/ Mayor 23, 28013 Madrid", "Tel. 910 123 456", "NIF B12345678"],
        title: "FACTURA SIMPLIFICADA",
        date: Day(2025, 6, 21), dateStyle: .slashDMY, time: "12:05",
        reference: ("Ticket nº", "0482-118"),
        money: .euroES, pricing: .gross, taxRates: [.iva10, .iva21],
        items: [
            Item("Aceite oliva 1 L", 895), Item("Detergente", 450, tax: 1), Item("Tomate triturado", 115, quantity: 2),
            Item("Agua 6x1,5 L", 294), Item("Papel cocina", 235, tax: 1)
        ],
        labels: .spa,
        payment: .cash(tenderedCents: 5000)),

    Receipt(
        id: "spa-cafeteria", language: .spa, format: .jpeg, font: "Liberation Mono",
        scan: ScanLook(paper: 232, noise: 6, rotation: -1.5),
        note: "scan look with -1.5° rotation; dd-mm-yy date; only the IVA line, no base",
        merchant: "Cafetería El Faro S.L.",
        header: ["Paseo Marítimo 5", "29016 Málaga", "Tel. 952 223 344", "CIF B29876543"],
        date: Day(2025, 8, 9), dateStyle: .dashShort, time: "09:31",
        reference: ("Nº Ticket:", "000482"),
        money: .euroES, pricing: .gross, taxRates: [.iva10],
        items: [
            Item("Café con leche", 160, quantity: 2), Item("Tostada tomate", 280), Item("Zumo naranja", 320),
            Item("Croissant", 190)
        ],
        labels: .spa.with(total: "TOTAL IMPORTE"), showSubtotal: false,
        payment: .card(detail: "VISA **** 7731")),

    Receipt(
        id: "spa-ferreteria", language: .spa, kind: .invoice, layout: .invoice(.a5), format: .imagePDF,
        font: "Liberation Sans",
        note: "invoice page as image-only PDF, amounts over 1.000,00",
        merchant: "Ferretería Los Álamos S.L.",
        header: ["Avda. de la Constitución 88, 41001 Sevilla", "Tel. 954 556 677", "NIF B41234567", "Fecha de vencimiento: 16/11/2025"],
        title: "FACTURA",
        date: Day(2025, 10, 17), dateStyle: .slashDMY, dateLabel: "Fecha:",
        reference: ("Factura nº", "F-2025/0921"),
        money: .euroES, pricing: .gross, taxRates: [.iva21],
        items: [
            Item("Hormigonera 160 l", 118_900), Item("Carretilla", 7990), Item("Pala", 1495, quantity: 2),
            Item("Guantes de trabajo", 450, quantity: 3)
        ],
        labels: .spa.with(total: "TOTAL FACTURA"),
        payment: .card(detail: "Pagado con tarjeta")),

    Receipt(
        id: "deu-kiosk", language: .deu, font: "DejaVu Sans Mono",
        note: "no currency printed anywhere; GmbH and a postcode before the town place it in Germany (issue 51)",
        merchant: "Kiosk am Ring GmbH",
        header: ["Hohenzollernring 4", "50672 Köln", "Tel. 0221 923344"],
        date: Day(2026, 3, 2), dateStyle: .dotted, time: "12:41",
        reference: ("Bon-Nr.", "2210"),
        money: .euroBareDE, pricing: .gross, taxRates: [.mwst7, .mwst19],
        items: [Item("Zeitung", 250), Item("Wasser 0,5 l", 129, tax: 1), Item("Brezel", 95)],
        labels: .deu,
        payment: .cash(tenderedCents: 1000)),

    Receipt(
        id: "deu-tse-kasse", language: .deu, font: "DejaVu Sans Mono",
        note:
            "a till receipt since 2020: the day with a two-digit year beside the time, the TSE block's ISO timestamps, the name a logo printed only in the imprint as a GmbH & Co. KG (issue 51)",
        merchant: "Markthalle Weber GmbH & Co. KG", merchantPrinted: false, above: ["KASSENBON"],
        header: ["Lindenallee 7", "30159 Hannover", "Tel. 0511 445566"],
        date: Day(2026, 2, 27), dateStyle: .dottedShort, time: "18:22",
        reference: ("Bon", "7731"),
        money: .euroDE, pricing: .gross, taxRates: [.mwst7, .mwst19],
        items: [Item("Äpfel Elstar", 249), Item("Vollmilch 1 l", 119), Item("Spülmittel", 185, tax: 1)],
        labels: .deu,
        payment: .card(detail: "girocard"),
        footer: [
            "TSE-Transaktion 48213", "TSE-Start 2026-02-27T18:22:04", "TSE-Stop 2026-02-27T18:22:31",
            "Markthalle Weber GmbH & Co. KG", "USt-IdNr. DE287654321"
        ]),

    Receipt(
        id: "fra-garage-facture", language: .fra, kind: .invoice, layout: .invoice(.a4), format: .png,
        font: "Liberation Sans",
        note: "the day to pay by printed above the invoice date: the date is the day of issue (issue 51)",
        merchant: "Garage Dupont SARL",
        header: ["22 avenue Jean Jaurès, 69007 Lyon", "Tél. 04 72 00 11 22", "Date limite de paiement : 15/04/2026"],
        title: "FACTURE",
        date: Day(2026, 3, 16), dateStyle: .slashDMY, dateLabel: "Date :",
        reference: ("Facture n°", "G-2026-0114"),
        money: .euroFR, pricing: .gross, taxRates: [TaxRate(label: "TVA", basisPoints: 2000)],
        items: [Item("Vidange et filtre", 8900), Item("Plaquettes de frein", 12_400), Item("Main d'œuvre", 6000, quantity: 2)],
        labels: .fra.with(total: "NET À PAYER"),
        payment: .due(note: "Paiement par virement à réception.")),

    Receipt(
        id: "deu-drogerie-logo", language: .deu, font: "DejaVu Sans Mono",
        note: "the name is a logo: the header starts with the street, the imprint's legal name is in the footer (issue 51)",
        merchant: "Drogerie Sonne GmbH", merchantPrinted: false,
        header: ["Bahnhofstr. 12", "04109 Leipzig", "Tel. 0341 998877"],
        date: Day(2026, 2, 20), dateStyle: .dotted, time: "17:05",
        reference: ("Bon-Nr.", "5531"),
        money: .euroDE, pricing: .gross, taxRates: [.mwst19],
        items: [Item("Zahnpasta", 195), Item("Duschgel", 245, quantity: 2), Item("Taschentücher", 129)],
        labels: .deu,
        payment: .card(detail: "girocard kontaktlos"),
        footer: ["Drogerie Sonne GmbH", "Am Markt 1, 04109 Leipzig", "USt-IdNr. DE301234567"]),

    Receipt(
        id: "fra-boulangerie", language: .fra, font: "FreeMono", boldText: true,
        note: "FreeMono, TVA 5,5% and 10%, 12,50 style amounts, cash with change",
        merchant: "Boulangerie du Marché SARL",
        header: ["8 place du Marché, 69002 Lyon", "Tél. 04 78 12 34 56", "SIRET 812 345 678 00021"],
        date: Day(2026, 1, 10), dateStyle: .slashDMY, time: "08:12",
        money: .euroFRShort, pricing: .gross,
        taxRates: [TaxRate(label: "TVA", basisPoints: 550), TaxRate(label: "TVA", basisPoints: 1000)],
        items: [
            Item("Baguette tradition", 130, quantity: 2), Item("Croissant", 135, quantity: 3),
            Item("Tarte aux pommes", 1250), Item("Café", 180, tax: 1)
        ],
        labels: .fra.with(change: "Rendu monnaie"),
        payment: .cash(tenderedCents: 3000)),

    Receipt(
        id: "fra-mobilier", language: .fra, kind: .invoice, layout: .invoice(.a4), format: .imagePDF,
        font: "DejaVu Serif", scan: ScanLook(paper: 242, noise: 5, rotation: 0.8),
        note: "scanned invoice as JPEG-in-PDF, 1 234,56 amounts, '14 mai 2026' date",
        merchant: "Mobilier Durand SARL",
        header: ["14 rue des Artisans, 33000 Bordeaux", "Tél. 05 56 00 11 22", "N° TVA FR12345678901"],
        title: "FACTURE",
        date: Day(2026, 5, 14), dateStyle: .frenchMonth, dateLabel: "Date :",
        reference: ("Facture n°", "2026-0457"),
        money: .euroFR, pricing: .gross, taxRates: [TaxRate(label: "TVA", basisPoints: 2000)],
        items: [
            Item("Bureau chêne 140 cm", 64_900), Item("Chaise ergonomique", 28_900, quantity: 2),
            Item("Lampe de bureau", 5990), Item("Livraison et montage", 4500)
        ],
        labels: .fra.with(total: "À PAYER"),
        payment: .card(detail: nil)),

    Receipt(
        id: "msa-kedai-runcit", language: .msa, font: "DejaVu Sans Mono",
        note: "Malay month name (MAC), SST 6% added, cash with change (BAKI)",
        merchant: "Kedai Runcit Maju Jaya SDN BHD",
        header: ["No. 12, Jalan Besar", "43000 Kajang, Selangor", "Tel: 03-8736 1234", "No. SST: B16-1808-32000123"],
        date: Day(2026, 3, 14), dateStyle: .malayMonth, time: "19:20",
        reference: ("No. Resit:", "R0012873"),
        money: .ringgit, pricing: .net, taxRates: [.sst6],
        items: [
            Item("Beras Wangi 5kg", 1890), Item("Gula 1kg", 285), Item("Teh 100 uncang", 960),
            Item("Susu Pekat", 320, quantity: 2)
        ],
        labels: .msa,
        payment: .cash(tenderedCents: 5000)),

    Receipt(
        id: "msa-kedai-kopi", language: .msa, font: "DejaVu Sans Mono",
        note: "no currency printed anywhere; SDN BHD, Jalan and an SST number place it in Malaysia (issue 51)",
        merchant: "Kedai Kopi Sri Murni SDN BHD",
        header: ["No. 21, Jalan Pasar", "70000 Seremban", "Tel: 06-762 1188", "No. SST: N10-1808-32000777"],
        date: Day(2026, 2, 9), dateStyle: .slashDMY, time: "08:41",
        money: .ringgitBare, pricing: .net, taxRates: [.sst6],
        items: [Item("Kopi O", 220, quantity: 2), Item("Roti Bakar", 350), Item("Telur Separuh Masak", 280)],
        labels: .msa,
        payment: .cash(tenderedCents: 2000)),

    Receipt(
        id: "msa-restoran", language: .msa, format: .jpeg, font: "DejaVu Sans",
        scan: ScanLook(paper: 235, noise: 6, rotation: 1.8),
        note: "scan look with 1.8° rotation, dd-mm-yy date, JUMLAH BESAR, credit card",
        merchant: "Restoran Selera Kampung SDN BHD",
        header: ["Lot 5, Jalan Tun Razak", "50400 Kuala Lumpur", "Tel: 03-2142 5678"],
        date: Day(2025, 12, 6), dateStyle: .dashShort, time: "13:05",
        extraInfo: "Meja 7  Pax 3",
        money: .ringgit, pricing: .net, taxRates: [.sst6],
        items: [
            Item("Nasi Lemak Ayam", 1290), Item("Mee Goreng Mamak", 950), Item("Teh Tarik", 320, quantity: 2),
            Item("Roti Canai", 180, quantity: 2)
        ],
        labels: .msa.with(total: "JUMLAH BESAR"),
        payment: .card(detail: "MASTERCARD **** 5520")),

    Receipt(
        id: "msa-percetakan-invois", language: .msa, kind: .invoice, layout: .invoice(.a4), format: .imagePDF,
        font: "FreeSans",
        note: "invoice with SST 8%, 1,234.56 amounts, payment due later",
        merchant: "Percetakan Cahaya SDN BHD",
        header: [
            "No. 3, Jalan Perindustrian 2, 81200 Johor Bahru", "Tel: 07-236 4455", "No. SST: J31-1809-32000456",
            "Tarikh Akhir Bayaran: 2 NOVEMBER 2025"
        ],
        title: "INVOIS",
        date: Day(2025, 10, 3), dateStyle: .malayMonth, dateLabel: "Tarikh:",
        reference: ("No. Invois:", "INV-25-0312"),
        money: .ringgit, pricing: .net, taxRates: [.sst8],
        items: [
            Item("Kad nama (kotak 100)", 4500, quantity: 5), Item("Risalah A5 1000 keping", 38_000, quantity: 2),
            Item("Banner 3x6 kaki", 12_000), Item("Reka bentuk grafik", 15_000)
        ],
        labels: .msa,
        payment: .due(note: "Sila bayar dalam tempoh 30 hari.")),

    Receipt(
        id: "eng-gb-pub-logo", language: .eng, font: "DejaVu Sans Mono",
        note:
            "a heading above where the logo stands, the name only in the footer's legal line, no currency printed (a GB VAT number and a UK postcode place it), the date after the till and the time, 'Amount Due' (issue 51)",
        merchant: "Red Lion Taverns Ltd", merchantPrinted: false, above: ["RECEIPT"],
        header: ["14 Market Street", "York YO1 8BB", "Tel 01904 622133", "VAT Reg No GB 284 5531 07"],
        date: Day(2026, 3, 6), dateStyle: .slashDMY, time: "21:14", dateLine: "Till 2  {time}  {date}",
        reference: ("Receipt No.", "4471"),
        money: .poundBare, pricing: .gross, taxRates: [.vat20],
        items: [Item("Pint of Bitter", 480, quantity: 2), Item("Fish and Chips", 1450), Item("Sticky Toffee Pudding", 650)],
        labels: .eng.with(total: "Amount Due"),
        payment: .card(detail: "Contactless VISA **** 4821"),
        footer: ["Red Lion Taverns Ltd", "Company No. 04455123"]),

    Receipt(
        id: "spa-ticket-logo", language: .spa, font: "DejaVu Sans Mono",
        note:
            "'FACTURA SIMPLIFICADA' above where the logo stands, the name only in the footer with its CIF, no currency printed (IVA, a CIF and a postcode place it), the date after the till, 'TOTAL A PAGAR' (issue 51)",
        merchant: "Fruterías Huerta Viva S.L.", merchantPrinted: false, above: ["FACTURA SIMPLIFICADA"],
        header: ["Calle Mayor 18", "46001 Valencia", "Tel. 963 12 34 56"],
        date: Day(2026, 2, 14), dateStyle: .slashDMY, time: "10:32", dateLine: "Caja 3  {date}  {time}",
        money: .euroBareES, pricing: .gross, taxRates: [.iva10, .iva21],
        items: [Item("Naranjas 2 kg", 398), Item("Tomates", 245), Item("Aceite de oliva 1 l", 895), Item("Bolsa", 50, tax: 1)],
        labels: .spa.with(total: "TOTAL A PAGAR"),
        payment: .cash(tenderedCents: 2000),
        footer: ["Fruterías Huerta Viva S.L.", "CIF B46123456"]),

    Receipt(
        id: "fra-ticket-logo", language: .fra, font: "DejaVu Sans Mono",
        note:
            "'TICKET DE CAISSE' above where the logo stands, the name only in the footer with its SIRET, no currency printed (TVA, a SIRET and a postcode place it), the time before the date and the till after it (issue 51)",
        merchant: "Primeurs du Coin SAS", merchantPrinted: false, above: ["TICKET DE CAISSE"],
        header: ["12 rue de la République", "13001 Marseille", "Tél. 04 91 55 12 34"],
        date: Day(2026, 1, 23), dateStyle: .slashDMY, time: "17:48", dateLine: "{time}  {date}  Caisse 2",
        money: .euroBareFR, pricing: .gross, taxRates: [.tva55, .tva20],
        items: [Item("Pommes Golden", 320), Item("Salade batavia", 150), Item("Clémentines", 420), Item("Sac cabas", 100, tax: 1)],
        labels: .fra.with(total: "NET A PAYER"),
        payment: .card(detail: "CB SANS CONTACT"),
        footer: ["Primeurs du Coin SAS", "SIRET 532 118 907 00014", "TVA FR41532118907"]),

    Receipt(
        id: "msa-kedai-cawangan", language: .msa, font: "DejaVu Sans Mono",
        note:
            "the brand over the legal name (the record's name is the legal one), the date on the line below its heading, cash rounded to 5 sen with the amount to pay below the total (issue 51)",
        merchant: "Maju Mart Borong SDN BHD", above: ["MAJU MART"],
        header: ["(123456-K)", "No 12, Jalan Genting Klang", "53300 Kuala Lumpur", "No. SST: W10-1808-32000123"],
        title: "INVOIS CUKAI",
        date: Day(2026, 4, 9), dateStyle: .slashDMY, time: "13:05", dateLine: "TARIKH\n{date} {time}",
        money: .ringgit, pricing: .net, taxRates: [.sst6],
        items: [Item("Beras Wangi 5kg", 1890), Item("Minyak Masak 2kg", 1130), Item("Gula Pasir 1kg", 285)],
        labels: .msa,
        payment: .cash(tenderedCents: 5000),
        cashRounding: ("Pelarasan Bundar", "PERLU DIBAYAR"))
]

/// The shop of `shoebox-fixtures --shop-series`: its name is a logo, so no line of the page names it; its address, phone
/// and SST number are printed on every receipt. Prices carry no "RM": the currency is inferred from the country.
let shopSeries = Receipt(
    id: "kedai-logo", language: .msa, font: "DejaVu Sans Mono",
    note: "a shop whose name is a logo: the page prints no name",
    merchant: "Kedai Buku Cahaya Ilmu SDN BHD", merchantPrinted: false,
    header: ["No. 8, Jalan Merdeka 3", "75000 Melaka", "Tel: 06-282 7311", "No. SST: M10-1808-32000987"],
    date: Day(2026, 1, 5), dateStyle: .slashDMY, time: "10:15",
    reference: ("No. Resit:", "CI2026"),
    money: .ringgitBare, pricing: .net, taxRates: [.sst6],
    items: [Item("Langganan majalah bulanan", 2500)],
    labels: .msa,
    payment: .card(detail: "VISA **** 4471"))

/// Phone photos and scans in `Fixtures/sample-scans/<folder>/`.
let sampleFixtures: [Receipt] = [
    Receipt(
        id: "berlin-currywurst", language: .deu, format: .jpeg,
        destination: .sample(folder: "2026-03-berlin-trip", fileName: "IMG_0412.jpg"),
        font: "DejaVu Sans Mono", scan: ScanLook(paper: 236, noise: 6, rotation: -1.0),
        note: "snack bar, cash 20,00",
        merchant: "Currywurst am Tor GmbH",
        header: ["Torstraße 101, 10119 Berlin", "Tel. 030 2831144"],
        date: Day(2026, 3, 15), dateStyle: .dotted, time: "13:12",
        money: .euroSymbolDE, pricing: .gross, taxRates: [.mwst19],
        items: [Item("Currywurst Pommes", 750), Item("Currywurst scharf", 590), Item("Cola 0,5 l", 320)],
        labels: .deu.with(total: "GESAMT", thanks: "Guten Appetit!"), showSubtotal: false,
        payment: .cash(tenderedCents: 2000)),

    Receipt(
        id: "berlin-hotel", language: .deu, kind: .invoice, layout: .invoice(.a4), format: .imagePDF,
        destination: .sample(folder: "2026-03-berlin-trip", fileName: "scan_2026-03-17_001.pdf"),
        font: "Liberation Sans",
        note: "hotel invoice, 7% room and 19% breakfast",
        merchant: "Hotel Spreeblick GmbH",
        header: ["Holzmarktstraße 5, 10179 Berlin", "Tel. 030 2400 8800", "USt-IdNr. DE298765432"],
        title: "RECHNUNG",
        date: Day(2026, 3, 17), dateStyle: .dotted, dateLabel: "Datum:",
        reference: ("Rechnungsnr.", "H-26-1043"),
        money: .euroDE, pricing: .gross, taxRates: [.mwst7, .mwst19],
        items: [
            Item("Übernachtung Doppelzimmer", 9600, quantity: 3), Item("Frühstück", 1450, quantity: 6, tax: 1),
            Item("Minibar", 650, tax: 1)
        ],
        labels: .deu.with(
            total: "GESAMTBETRAG", card: "Visa",
            thanks: "Wir danken für Ihren Besuch."),
        payment: .card(detail: "**** 9921")),

    Receipt(
        id: "berlin-museum", language: .deu, format: .png,
        destination: .sample(folder: "2026-03-berlin-trip", fileName: "IMG_0427.png"),
        font: "FreeSans",
        note: "museum shop, 7% book and 19% goods",
        merchant: "Museumsladen Insel GmbH",
        header: ["Am Lustgarten 1, 10178 Berlin", "Tel. 030 266424242"],
        date: Day(2026, 3, 16), dateStyle: .dottedShort, time: "15:40",
        reference: ("Beleg", "2231"),
        money: .euroDE, pricing: .gross, taxRates: [.mwst7, .mwst19],
        items: [
            Item("Ausstellungskatalog", 2990), Item("Postkarte", 150, quantity: 4, tax: 1),
            Item("Baumwolltasche", 1200, tax: 1)
        ],
        labels: .deu.with(card: "Kartenzahlung"),
        payment: .card(detail: "Visa **** 9921")),

    Receipt(
        id: "berlin-taxi", language: .deu, format: .jpeg,
        destination: .sample(folder: "2026-03-berlin-trip", fileName: "IMG_0433.jpg"),
        font: "Liberation Mono", scan: ScanLook(paper: 230, noise: 6, rotation: 1.4),
        note: "taxi receipt, single fare line, cash 30,00",
        merchant: "Taxi Funk Berlin GmbH",
        header: ["Persiusstraße 7, 10245 Berlin", "Tel. 030 202020"],
        title: "QUITTUNG",
        date: Day(2026, 3, 18), dateStyle: .dotted, time: "22:47",
        reference: ("Fahrt-Nr.", "88213"), extraInfo: "Taxi 4711  Fahrer 153",
        money: .euroDE, pricing: .gross, taxRates: [.mwst7],
        items: [Item("Fahrpreis", 2340), Item("Gepäck", 150)],
        labels: .deu.with(total: "GESAMT", thanks: "Gute Fahrt!"),
        payment: .cash(tenderedCents: 3000)),

    Receipt(
        id: "office-stationers", language: .eng, format: .imagePDF,
        destination: .sample(folder: "office-supplies", fileName: "scan_2026-02-03_001.pdf"),
        font: "DejaVu Sans",
        note: "thermal receipt scanned to PDF (image only)",
        merchant: "Paper & Pen Stationers Ltd",
        header: ["3 Market Street, Oxford OX1 3EQ", "Tel: 01865 555 210", "VAT No: GB 246 8101 23"],
        date: Day(2026, 2, 3), dateStyle: .slashDMY, time: "10:02",
        reference: ("Receipt No:", "100293"),
        money: .pound, pricing: .gross, taxRates: [.vat20],
        items: [
            Item("A4 Copier Paper", 499, quantity: 5), Item("Ballpoint Pens 10pk", 349), Item("Stapler", 899),
            Item("Sticky Notes", 250, quantity: 2)
        ],
        labels: .eng.with(subtotal: "Net"),
        payment: .card(detail: "MASTERCARD **** 3307")),

    Receipt(
        id: "office-alat-tulis", language: .msa, format: .jpeg,
        destination: .sample(folder: "office-supplies", fileName: "IMG_2201.jpg"),
        font: "Liberation Sans", scan: ScanLook(paper: 234, noise: 6, rotation: -0.9),
        note: "Malay stationery shop, ISO date, cash RM 100.00",
        merchant: "Kedai Alat Tulis Sinar SDN BHD",
        header: ["No. 8, Jalan Pasar", "10200 George Town, Pulau Pinang", "Tel: 04-262 7788"],
        date: Day(2026, 2, 20), dateStyle: .iso, time: "10:14",
        reference: ("No. Resit:", "S-004512"),
        money: .ringgit, pricing: .net, taxRates: [.sst6],
        items: [
            Item("Kertas A4 80gsm", 1250, quantity: 4), Item("Fail Kotak", 690, quantity: 4),
            Item("Pen Biru", 120, quantity: 12)
        ],
        labels: .msa,
        payment: .cash(tenderedCents: 10_000)),

    Receipt(
        id: "office-summit", language: .eng, format: .png,
        destination: .sample(folder: "office-supplies", fileName: "scan_0007.png"),
        font: "Liberation Sans",
        note: "US office supply store, sales tax 6.25%, order number",
        merchant: "Summit Office Supply Inc",
        header: ["77 Congress Street", "Boston, MA 02109", "(617) 555-0199"],
        date: Day(2026, 1, 5), dateStyle: .englishMonth, time: "09:48",
        reference: ("Order #", "58213"),
        money: .dollar, pricing: .net, taxRates: [TaxRate(label: "Sales Tax", basisPoints: 625)],
        items: [Item("Printer Toner 12A", 8999), Item("Desk Organizer", 2450), Item("Notebook A5", 425, quantity: 3)],
        labels: .eng.with(card: "AMEX"),
        payment: .card(detail: "**** 1009  APPROVED"))
]
