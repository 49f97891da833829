"""Fixtures and reference extractions for tests/search/documents_diff.rs and the benchmarks.

    python documents_ref.py gen DIR            the differential fixtures (+ NAME.ref.txt from the libraries)
    python documents_ref.py big DIR            a 1,000-page PDF and a ~50 MB deck
    python documents_ref.py tree DIR N         N small documents of all kinds (for grep benchmarks)
    python documents_ref.py extract FILE...    the reference libraries' text of each file (timed)

Reference text: python-pptx, python-docx, openpyxl, nbformat (PDFs: pdftotext, run by the test).
"""

import io
import os
import random
import sys
import time

UNI = "CJK 漢字テスト 한국어 · RTL עברית العربية · emoji 🚀🎉 · Ünïcödé"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def pptx_file(path, slides=4, image_bytes=0):
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    for i in range(slides):
        if i == 2:
            prs.slides.add_slide(prs.slide_layouts[6])  # an empty slide
            continue
        s = prs.slides.add_slide(prs.slide_layouts[1])
        s.shapes.title.text = f"Slide title {i + 1} {UNI}"
        body = s.placeholders[1].text_frame
        body.text = f"First point of slide {i + 1}"
        p = body.add_paragraph()
        p.text = "Second point with tab\tand more"
        box = s.shapes.add_textbox(Inches(1), Inches(5), Inches(4), Inches(1))
        box.text_frame.text = f"Free text box {i + 1}"
        if i == 1:
            t = s.shapes.add_table(2, 3, Inches(1), Inches(6), Inches(6), Inches(1)).table
            for r in range(2):
                for c in range(3):
                    t.cell(r, c).text = f"r{r}c{c} {UNI.split()[1] if r else 'head'}"
        s.notes_slide.notes_text_frame.text = f"Speaker notes {i + 1} {UNI}"
        if image_bytes:
            s.shapes.add_picture(noise_png(image_bytes), Inches(6), Inches(1))
    prs.save(path)


def noise_png(nbytes):
    from PIL import Image

    side = int((nbytes / 3) ** 0.5)
    img = Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))
    b = io.BytesIO()
    img.save(b, "PNG", compress_level=0)
    b.seek(0)
    return b


def pptx_ref(path):
    from pptx import Presentation

    out = []
    prs = Presentation(path)
    for slide in prs.slides:
        for shape in slide.shapes:
            if shape.has_text_frame:
                out.append(shape.text_frame.text)
            if getattr(shape, "has_table", False) and shape.has_table:
                for row in shape.table.rows:
                    out.append("\t".join(c.text for c in row.cells))
        if slide.has_notes_slide:
            out.append(slide.notes_slide.notes_text_frame.text)
    return "\n".join(out)


def docx_file(path):
    import docx

    d = docx.Document()
    sec = d.sections[0]
    sec.header.paragraphs[0].text = f"Header text {UNI}"
    sec.footer.paragraphs[0].text = "Footer text page"
    d.add_heading("Document heading", 1)
    d.add_paragraph(f"A paragraph with {UNI}.")
    p = d.add_paragraph("Runs: ")
    p.add_run("bold").bold = True
    p.add_run(" and italic").italic = True
    t = d.add_table(rows=3, cols=3)
    for r in range(3):
        for c in range(3):
            t.cell(r, c).text = f"cell {r},{c}"
    d.add_paragraph("After the table & <escaped> \"quotes\".")
    d.save(path)


def docx_ref(path):
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    d = docx.Document(path)
    out = []
    for sec in d.sections:
        out += [p.text for p in sec.header.paragraphs]
    for el in d.element.body.iterchildren():
        tag = el.tag.rsplit("}", 1)[-1]
        if tag == "p":
            out.append(Paragraph(el, d).text)
        elif tag == "tbl":
            for row in Table(el, d).rows:
                out.append("\t".join(c.text for c in row.cells))
    for sec in d.sections:
        out += [p.text for p in sec.footer.paragraphs]
    return "\n".join(out)


def xlsx_file(path, rows=20):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["name", "value", "note"])
    for i in range(rows):
        ws.append([f"item {i}", i * 3, UNI if i % 5 == 0 else f"n{i}"])
    ws["E2"] = "gap cell"
    hid = wb.create_sheet("Secret")
    hid.sheet_state = "hidden"
    hid.append(["hidden", "sheet", 42])
    wb.create_sheet("Empty")
    wb.save(path)


def xlsx_ref(path):
    import openpyxl

    wb = openpyxl.load_workbook(path)
    out = []
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            out.append("\t".join("" if v is None else str(v) for v in row))
    return "\n".join(out)


def pdf_file(path, pages=3):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_font("dv", fname=FONT)
    pdf.set_font("dv", size=12)
    for i in range(pages):
        pdf.add_page()
        pdf.cell(text=f"Page heading {i + 1}", new_x="LMARGIN", new_y="NEXT")
        pdf.cell(text="Unicode: Ünïcödé Ελληνικά кириллица", new_x="LMARGIN", new_y="NEXT")
        for j in range(3):
            pdf.cell(text=f"line {j} of page {i + 1} with words", new_x="LMARGIN", new_y="NEXT")
    pdf.output(path)


def ipynb_file(path):
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    nb = new_notebook()
    nb.cells = [
        new_markdown_cell(f"# Notebook title\nSome *markdown* {UNI}"),
        new_code_cell(
            "print('hello')\n1 + 1",
            outputs=[
                new_output("stream", name="stdout", text="hello\n"),
                new_output("execute_result", data={"text/plain": "2"}, execution_count=1),
                new_output("display_data", data={"image/png": "iVBORw0KGgo="}),
            ],
        ),
        new_code_cell("raise ValueError('bad')", outputs=[
            new_output("error", ename="ValueError", evalue="bad", traceback=["..."]),
        ]),
    ]
    nbformat.write(nb, path)


def ipynb_ref(path):
    import nbformat

    nb = nbformat.read(path, as_version=4)
    out = []
    for c in nb.cells:
        out.append(c.source)
        for o in c.get("outputs", []):
            if o.output_type == "stream":
                out.append(o.text)
            elif o.output_type == "error":
                out.append(f"{o.ename}: {o.evalue}")
            elif "text/plain" in o.get("data", {}):
                out.append(o.data["text/plain"])
    return "\n".join(out)


REFS = {".pptx": pptx_ref, ".docx": docx_ref, ".xlsx": xlsx_ref, ".ipynb": ipynb_ref}


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "gen":
        d = args[0]
        pptx_file(f"{d}/deck.pptx")
        docx_file(f"{d}/doc.docx")
        xlsx_file(f"{d}/book.xlsx")
        pdf_file(f"{d}/paper.pdf")
        ipynb_file(f"{d}/nb.ipynb")
        for name in ["deck.pptx", "doc.docx", "book.xlsx", "nb.ipynb"]:
            ext = os.path.splitext(name)[1]
            with open(f"{d}/{name}.ref.txt", "w") as f:
                f.write(REFS[ext](f"{d}/{name}"))
    elif cmd == "big":
        d = args[0]
        pdf_file(f"{d}/big.pdf", pages=1000)
        pptx_file(f"{d}/big.pptx", slides=50, image_bytes=1_000_000)
        with open(f"{d}/big.pptx.ref.txt", "w") as f:
            f.write(pptx_ref(f"{d}/big.pptx"))
    elif cmd == "tree":
        d, n = args[0], int(args[1])
        random.seed(1)
        makers = [
            (".pptx", pptx_file),
            (".docx", lambda p: docx_file(p)),
            (".xlsx", xlsx_file),
            (".pdf", pdf_file),
            (".ipynb", ipynb_file),
        ]
        for i in range(n):
            ext, make = makers[i % len(makers)]
            sub = f"{d}/d{i % 10}"
            os.makedirs(sub, exist_ok=True)
            make(f"{sub}/f{i}{ext}")
    elif cmd == "extract":
        # Import the libraries first: their import time is not extraction time.
        import docx, nbformat, openpyxl, pptx  # noqa: F401

        total = 0.0
        for p in args:
            ext = os.path.splitext(p)[1]
            t = time.perf_counter()
            REFS[ext](p)
            total += time.perf_counter() - t
        print(f"{total:.3f}")
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main()
