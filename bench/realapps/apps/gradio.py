"""Gradio: a Python app's web UI, built from a script with Gradio's ``Blocks``. A person uses a
small tool someone wrote in Python: a "Recipe scaler" page with three tabs ("Scale",
"Shopping list", "Ask the cook"): a "Recipe" drop-down, a "Servings" slider with its number
box, "Units" radio buttons ("Metric", "US"), a "Round to whole numbers" checkbox, a closed
"More options" accordion with a "Note for the shopping list" box, a "Scale recipe" button, an
"Ingredients" table (a dataframe) and a summary, an "Examples" table whose rows fill and run
the form; a shopping list (a text box, "Add", "Clear list", a one-column table); a chatbot
("Cook") with "Your question", "Ask" and "Clear chat"; and the footer's "Use via API" panel.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 3.50.2 shows, and committed before any engine run on it. Both versions are PyPI's
``gradio`` package serving the same script (below, written for this corpus: Gradio is a
library, so its "app" is a script a person writes; it runs unchanged on both versions). The
drift between them is the library's own: 3.50.2's tab buttons become WAI-ARIA tabs, the
drop-down, slider, radio, checkbox, accordion, dataframe, chatbot and footer are redrawn by
newer Svelte components (DRIFT below, measured on the pages).

3.50.2 needs the web stack of its day: pip resolves today's FastAPI, Starlette, pydantic,
httpx and huggingface_hub, with which it cannot render its page (Starlette's new
``TemplateResponse`` signature) or start (FastAPI 0.104's parameters under pydantic 2.14);
``fastapi==0.104.1``, ``pydantic==2.4.2``, ``httpx==0.25.0``, ``uvicorn==0.23.2`` and
``huggingface_hub==0.19.4`` were asked for, and every package is pinned below as pip then
resolved it (``pip freeze``).

Every start uses a fresh work folder and seeds it through the app's own files: the script
and the recipe book it reads (``recipes.json``: "Pancakes", "Tomato soup", "Lemon cake") are
written there, and the script is run with the version's Python, analytics off
(``GRADIO_ANALYTICS_ENABLED=False``), no share link, on 127.0.0.1. The theme's fonts are the
system's (the default theme asks a web-font host for its fonts). Checked with ``strace -f -e
trace=connect`` on the server of both versions while it started and served the flows' pages,
and a Playwright request log: docs/real-apps.md, "New held-out app: Gradio".
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("3.50.2", "5.50.0")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "3.50.2": """aiofiles==23.2.1 altair==5.5.0 annotated-types==0.8.0 anyio==3.7.1
attrs==26.1.0 certifi==2026.10.19.post1 charset-normalizer==3.5.3 click==8.5.1 contourpy==1.3.3
cycler==0.12.1 fastapi==0.104.1 ffmpy==1.0.0 filelock==4.3.1 fonttools==4.68.0 fsspec==2026.9.0
gradio_client==0.6.1 h11==0.14.0 httpcore==0.18.0 httpx==0.25.0 huggingface-hub==0.19.4
idna==3.20 importlib_resources==6.5.2 Jinja2==3.1.6 jsonschema==4.26.0
jsonschema-specifications==2025.9.1 kiwisolver==1.5.1 MarkupSafe==2.1.5 matplotlib==3.11.2
narwhals==2.29.0 numpy==1.26.4 orjson==3.13.0 packaging==26.4 pandas==2.3.3 pillow==10.4.0
pydantic==2.4.2 pydantic_core==2.10.1 pydub==0.25.1 pyparsing==3.3.3 python-dateutil==4.0.0
python-multipart==0.0.34 pytz==2026.6 PyYAML==6.0.4 referencing==0.37.0 requests==2.34.2
rpds-py==2026.9.1 semantic-version==2.10.0 sniffio==1.3.1 starlette==0.27.0 tqdm==4.70.1
typing_extensions==4.16.0 tzdata==2026.6 urllib3==2.8.0 uvicorn==0.23.2 websockets==11.0.3""",
    "5.50.0": """aiofiles==24.1.0 annotated-doc==0.0.7 annotated-types==0.8.0 anyio==4.16.0
brotli==1.2.1 certifi==2026.10.19.post1 click==8.5.1 fastapi==0.163.2 ffmpy==1.0.0 filelock==4.3.1
fsspec==2026.9.0 gradio_client==1.14.0 groovy==0.1.2 h11==0.16.0 hf-xet==1.8.0 httpcore==1.0.9
httpx==0.28.1 huggingface_hub==1.33.0 idna==3.20 Jinja2==3.1.6 markdown-it-py==4.3.0
MarkupSafe==3.0.4 mdurl==0.1.2 numpy==2.4.6 opentelemetry-api==1.45.2 orjson==3.13.0
packaging==26.4 pandas==2.3.3 pillow==11.3.0 pydantic==2.12.3 pydantic_core==2.41.4
pydub==0.25.1 Pygments==2.21.0 python-dateutil==4.0.0 python-multipart==0.0.34 pytz==2026.6
PyYAML==6.0.4 rich==15.0.0 ruff==0.17.6 safehttpx==0.1.7 semantic-version==2.10.0
shellingham==1.5.4 starlette==0.52.1 tomlkit==0.13.3 tqdm==4.70.1 typer==0.29.2
typing-inspection==0.4.5 typing_extensions==4.16.0 tzdata==2026.6 uvicorn==0.54.0
websockets==15.0.1""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"gradio=={v}", *_DEPS[v].split()) for v in VERSIONS}

RECIPES = """{
  "Pancakes": {"serves": 4, "ingredients": [["flour", 250, "g"], ["milk", 500, "ml"],
    ["eggs", 2, ""], ["butter", 30, "g"], ["sugar", 25, "g"]]},
  "Tomato soup": {"serves": 4, "ingredients": [["tomatoes", 1000, "g"], ["onion", 1, ""],
    ["vegetable stock", 750, "ml"], ["olive oil", 30, "ml"], ["basil", 10, "g"]]},
  "Lemon cake": {"serves": 8, "ingredients": [["flour", 200, "g"], ["sugar", 180, "g"],
    ["butter", 180, "g"], ["eggs", 3, ""], ["lemon zest", 2, "tbsp"]]}
}
"""

SCRIPT = '''"""A recipe scaler: the corpus's Gradio demo (run unchanged on every version)."""
import json
import sys
from pathlib import Path

import gradio as gr

RECIPES = json.loads(Path("recipes.json").read_text())
US = {"g": (1 / 120, "cups"), "ml": (1 / 240, "cups")}
ANSWERS = {
    "egg": "Instead of one egg: 1 tablespoon of ground flaxseed stirred into 3 tablespoons"
    " of water.",
    "butter": "Instead of butter: sunflower oil, 80% of the butter's weight.",
    "milk": "Instead of milk: oat milk, the same amount.",
    "sugar": "Instead of sugar: honey, three quarters of the amount.",
}


def scale(recipe, servings, units="Metric", whole=False, note=""):
    book = RECIPES[recipe]
    factor = float(servings) / book["serves"]
    rows = []
    for name, amount, unit in book["ingredients"]:
        amount = amount * factor
        if units == "US" and unit in US:
            rate, unit = US[unit]
            amount = amount * rate
        amount = round(amount) if whole else round(amount, 2)
        rows.append([name, amount, unit])
    summary = f"**{recipe} for {int(servings)}**: {len(rows)} ingredients."
    if note.strip():
        summary += f" Note: {note.strip()}"
    return rows, summary


def add_item(item, items):
    items = [row for row in (items or []) if row and row[0]]
    if item.strip():
        items.append([item.strip()])
    return items or [[""]], ""


def clear_items():
    return [[""]]


def ask(question, history):
    words = question.lower()
    answer = next((a for k, a in ANSWERS.items() if k in words),
                  "I know substitutes for eggs, butter, milk and sugar.")
    return (history or []) + [[question, answer]], ""


theme = gr.themes.Default(font=["Helvetica", "Arial", "sans-serif"],
                          font_mono=["Courier New", "monospace"])
with gr.Blocks(title="Recipe scaler", theme=theme, analytics_enabled=False) as demo:
    gr.Markdown("# Recipe scaler\\nScale a recipe to the number of people you cook for.")
    with gr.Tab("Scale"):
        with gr.Row():
            with gr.Column():
                recipe = gr.Dropdown(list(RECIPES), value="Pancakes", label="Recipe")
                servings = gr.Slider(1, 12, value=4, step=1, label="Servings")
                units = gr.Radio(["Metric", "US"], value="Metric", label="Units")
                whole = gr.Checkbox(value=False, label="Round to whole numbers")
                with gr.Accordion("More options", open=False):
                    note = gr.Textbox(label="Note for the shopping list",
                                      placeholder="e.g. buy organic eggs")
                scale_btn = gr.Button("Scale recipe", variant="primary")
            with gr.Column():
                table = gr.Dataframe(headers=["Ingredient", "Amount", "Unit"],
                                     label="Ingredients", interactive=False)
                summary = gr.Markdown("Choose a recipe and press **Scale recipe**.")
        gr.Examples([["Lemon cake", 12], ["Tomato soup", 2]], inputs=[recipe, servings],
                    outputs=[table, summary], fn=scale, run_on_click=True,
                    label="Examples")
    with gr.Tab("Shopping list"):
        item = gr.Textbox(label="Add an item", placeholder="e.g. 6 eggs")
        with gr.Row():
            add_btn = gr.Button("Add", variant="primary")
            clear_btn = gr.Button("Clear list")
        items = gr.Dataframe(headers=["Item"], value=[["flour"]], label="Shopping list",
                             interactive=False, type="array")
    with gr.Tab("Ask the cook"):
        chat = gr.Chatbot(label="Cook")
        question = gr.Textbox(label="Your question",
                              placeholder="What can I use instead of eggs?")
        with gr.Row():
            ask_btn = gr.Button("Ask", variant="primary")
            forget = gr.Button("Clear chat")

    scale_btn.click(scale, [recipe, servings, units, whole, note], [table, summary])
    add_btn.click(add_item, [item, items], [items, item])
    item.submit(add_item, [item, items], [items, item])
    clear_btn.click(clear_items, None, items)
    ask_btn.click(ask, [question, chat], [chat, question])
    question.submit(ask, [question, chat], [chat, question])
    forget.click(lambda: [], None, chat)

if __name__ == "__main__":
    demo.launch(server_name="127.0.0.1", server_port=int(sys.argv[1]), share=False,
                inbrowser=False)
'''


def _install(version: str) -> Path:
    return ensure_venv(f"gradio-{version}", list(PINS[version]))


def seed(workdir: Path) -> Path:
    """The script and its recipe book, written into ``workdir`` (the app's own files)."""
    (workdir / "recipes.json").write_text(RECIPES)
    (workdir / "tmp").mkdir(exist_ok=True)
    script = workdir / "recipe_scaler.py"
    script.write_text(SCRIPT)
    return script


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    script = seed(workdir)
    port = free_port()
    env = {
        "HOME": str(workdir),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "GRADIO_TEMP_DIR": str(workdir / "tmp"),
        "MPLCONFIGDIR": str(workdir / "tmp"),
    }
    argv = [str(venv / "bin" / "python"), str(script), str(port)]
    return serve(argv, port=port, cwd=workdir, workdir=workdir, env=env, timeout_s=180)


APP = AppSpec(
    name="gradio",
    kind="a Python script's web UI built with Gradio Blocks (tabs, drop-down, slider, radio, "
    "checkbox, accordion, dataframe, examples, chatbot, API panel)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
