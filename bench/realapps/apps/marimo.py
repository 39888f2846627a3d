"""marimo: a reactive Python notebook, served as an app (``marimo run``): the notebook's
outputs with their widgets, each change re-running the cells that depend on it. The seeded
notebook is a "Garden planner": a "Garden name" box, a "Rows of beds" slider, a "Vegetable"
drop-down, a "Water every day" checkbox, "Season" radio buttons (Spring, Summer, Autumn), a
summary line that follows them; a "Plants" table (plant, days to harvest, spacing) whose
rows are picked with a checkbox, with a search; "Helpers" (a multi-select), "Seed packets" (a
number box with up and down arrows), a "Plant seeds" button; a bordered form ("Notes", "Save
notes"); two tabs ("Calendar", "Pests") and a closed section "Watering tips".

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 0.9.0 shows, and committed before any engine run on it. Both versions are PyPI's
``marimo`` package (a Starlette server; a React front end whose widgets are custom elements
with open shadow roots). The drift between them is the app's own: the title is left-aligned
and the cells spaced wider; the table's search is a box "Search..." above the table (0.9.0:
a magnifier button, tooltip "Search", below it that opens a "Search" box above it), the table
gains "Columns", "Explore" and "Export" buttons, sort buttons and a "Column options" menu per
column (0.9.0: each column heading is itself a menu button), numbers aligned right, and a
footer "5 rows, 3 columns" and "No selection"; the labels are tied to their fields with
``for`` (0.9.0: the "Garden name" label is tied to nothing); the multi-select's trigger is a
``<button>``.

Every start uses a fresh work folder and seeds it through the app's own files: the notebook
``garden.py`` (marimo's own file format, a Python module of ``@app.cell`` functions) written
there, then ``marimo run garden.py --headless --host 127.0.0.1 -p PORT`` with ``HOME`` in the
work folder (marimo's settings) and ``MARIMO_SKIP_UPDATE_CHECK=1`` (the command line asks
PyPI for a newer release otherwise). Every page load is a new session with the notebook's
initial values. Checked with ``strace -f -e trace=connect`` on the server of both versions while
the flows ran, and a Playwright request log: docs/real-apps.md, "New held-out app: marimo".
"""

from __future__ import annotations

from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, serve

VERSIONS = ("0.9.0", "0.25.2")

# What pip resolved on Python 3.11 when the corpus entry was written (`pip freeze`), pinned so
# that a new release of a dependency cannot change what is served.
_DEPS = {
    "0.9.0": """anyio==4.16.0 click==8.5.1 docutils==0.23 h11==0.16.0 idna==3.20
itsdangerous==2.2.0 jedi==0.20.1 Markdown==3.11.3 packaging==26.4 parso==0.8.7 psutil==7.2.2
Pygments==2.21.0 pymdown-extensions==10.21.3 PyYAML==6.0.4 ruff==0.17.6 starlette==1.10.0
tomlkit==0.15.2 typing_extensions==4.16.0 uvicorn==0.54.0 websockets==12.0""",
    "0.25.2": """anyio==4.16.0 click==8.5.1 docutils==0.23 h11==0.16.0 idna==3.20
itsdangerous==2.2.0 jedi==0.20.1 loro==1.17.1 Markdown==3.11.3 msgspec==0.23.0
narwhals==2.29.0 packaging==26.4 parso==0.8.7 psutil==7.2.2 Pygments==2.21.0
pymdown-extensions==11.0.2 python-multipart==0.0.34 PyYAML==6.0.4 pyzmq==27.3.0
starlette==1.10.0 tomlkit==0.15.2 typing_extensions==4.16.0 uvicorn==0.54.0 websockets==17.4""",
}
PINS: dict[str, tuple[str, ...]] = {v: (f"marimo=={v}", *_DEPS[v].split()) for v in VERSIONS}

# The seeded notebook, in marimo's own file format; the same file for both versions (the API
# it uses is in both).
NOTEBOOK = """import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    return (mo,)


@app.cell
def _(mo):
    mo.md("# Garden planner\\nPlan this year's vegetable beds.")
    return


@app.cell
def _(mo):
    garden = mo.ui.text(label="Garden name", placeholder="e.g. Back yard")
    garden
    return (garden,)


@app.cell
def _(garden, mo):
    mo.md(f"Plan for: **{garden.value or 'no name yet'}**")
    return


@app.cell
def _(mo):
    rows = mo.ui.slider(1, 10, value=3, label="Rows of beds")
    vegetable = mo.ui.dropdown(
        ["Tomato", "Carrot", "Lettuce", "Bean"], value="Tomato", label="Vegetable"
    )
    water = mo.ui.checkbox(label="Water every day")
    season = mo.ui.radio(["Spring", "Summer", "Autumn"], value="Spring", label="Season")
    mo.vstack([rows, vegetable, water, season])
    return rows, season, vegetable, water


@app.cell
def _(mo, rows, season, vegetable, water):
    mo.md(
        f"{rows.value * 4} {vegetable.value.lower()} plants in {rows.value} rows, "
        f"sown in {season.value.lower()}; watering: {'daily' if water.value else 'weekly'}"
    )
    return


@app.cell
def _(mo):
    plants = mo.ui.table(
        [
            {"plant": "Tomato", "days to harvest": 70, "spacing (cm)": 60},
            {"plant": "Carrot", "days to harvest": 75, "spacing (cm)": 5},
            {"plant": "Lettuce", "days to harvest": 45, "spacing (cm)": 30},
            {"plant": "Bean", "days to harvest": 60, "spacing (cm)": 10},
            {"plant": "Pumpkin", "days to harvest": 110, "spacing (cm)": 150},
        ],
        label="Plants",
        selection="single",
    )
    plants
    return (plants,)


@app.cell
def _(mo, plants):
    mo.md(f"Selected plant: {', '.join(r['plant'] for r in plants.value) or 'none'}")
    return


@app.cell
def _(mo):
    helpers = mo.ui.multiselect(["Anna", "Ben", "Chloe", "Dev"], label="Helpers")
    packets = mo.ui.number(start=0, stop=50, value=2, label="Seed packets")
    plant_now = mo.ui.run_button(label="Plant seeds")
    mo.vstack([helpers, packets, plant_now])
    return helpers, packets, plant_now


@app.cell
def _(helpers, mo, packets, plant_now):
    mo.md(
        f"Helpers: {', '.join(helpers.value) or 'nobody'}; {packets.value} seed packets; "
        + ("Seeds planted!" if plant_now.value else "Nothing planted yet")
    )
    return


@app.cell
def _(mo):
    notes = mo.ui.text_area(label="Notes").form(submit_button_label="Save notes")
    notes
    return (notes,)


@app.cell
def _(mo, notes):
    mo.md(f"Saved notes: {notes.value}" if notes.value else "No notes saved")
    return


@app.cell
def _(mo):
    mo.ui.tabs(
        {
            "Calendar": mo.md("March: sow tomatoes indoors. April: plant carrots."),
            "Pests": mo.md("Slugs love lettuce: check the beds after rain."),
        }
    )
    return


@app.cell
def _(mo):
    mo.accordion({"Watering tips": mo.md("Water early in the morning, at the roots.")})
    return


if __name__ == "__main__":
    app.run()
"""


def _install(version: str) -> Path:
    return ensure_venv(f"marimo-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    (workdir / "garden.py").write_text(NOTEBOOK)
    port = free_port()
    command = [str(venv / "bin" / "marimo"), "run", "garden.py", "--headless",
               "--host", "127.0.0.1", "-p", str(port)]  # fmt: skip
    env = {"HOME": str(workdir), "MARIMO_SKIP_UPDATE_CHECK": "1"}
    return serve(command, port=port, cwd=workdir, workdir=workdir, ready="", env=env,
                 timeout_s=180)  # fmt: skip


APP = AppSpec(
    name="marimo",
    kind="reactive notebook served as an app (marimo run: widgets in shadow roots, a table "
    "with row selection and search, a form, tabs, an accordion)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
