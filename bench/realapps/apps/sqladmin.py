"""sqladmin: a CRUD back office on Starlette and SQLAlchemy (Tabler templates, Bootstrap
modals), serving a small bookshop database (publishers, authors, books).

A held-out app (docs/real-apps.md, "Held-out apps: DokuWiki and sqladmin"): its flows and
truth were written before any engine run on it. One app file serves every version; the drift
between versions is sqladmin's own templates (0.21.0 is the first release with list filters;
0.32.0 moved the filters into their own templates, added a Search button, an "Import CSV"
button, accessible names on the row checkboxes and a confirmation modal for bulk deletes).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from realapps.harness import AppSpec, Served, ensure_venv, free_port, spawn, wait_http

VERSIONS = ("0.21.0", "0.32.0")

# The versions pip resolved on Python 3.11 when the corpus entry was written, pinned so that a
# new release of a dependency cannot change what is served (0.21.0 predates Starlette 0.42).
PINS: dict[str, tuple[str, ...]] = {
    "0.21.0": (
        "sqladmin==0.21.0",
        "starlette==0.41.3",
        "SQLAlchemy==2.0.36",
        "greenlet==3.5.6",
        "WTForms==3.1.2",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "python-multipart==0.0.34",
        "anyio==4.16.0",
        "uvicorn==0.54.0",
    ),
    "0.32.0": (
        "sqladmin==0.32.0",
        "starlette==1.10.0",
        # SQLAlchemy 2.1's Float is no Numeric any more, and sqladmin 0.32.0 finds no form
        # field for it: the last 2.0 release that both versions run on
        "SQLAlchemy==2.0.36",
        "greenlet==3.5.6",
        "WTForms==3.2.2",
        "Jinja2==3.1.6",
        "MarkupSafe==3.0.4",
        "python-multipart==0.0.34",
        "anyio==4.16.0",
        "uvicorn==0.54.0",
    ),
}

APP_PY = textwrap.dedent(
    '''
    """Bookshop Admin: the corpus's sqladmin app (same code for every sqladmin version)."""
    import datetime
    import os
    import sys

    import uvicorn
    from sqladmin import Admin, ModelView
    from sqladmin.filters import AllUniqueStringValuesFilter, BooleanFilter, ForeignKeyFilter
    from sqlalchemy import Boolean, Date, Float, ForeignKey, Integer, String, create_engine
    from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship
    from starlette.applications import Starlette
    from starlette.responses import RedirectResponse
    from starlette.routing import Route

    HERE = os.path.dirname(os.path.abspath(__file__))
    engine = create_engine(
        "sqlite:///" + os.path.join(HERE, "bookshop.db"),
        connect_args={"check_same_thread": False},
    )


    class Base(DeclarativeBase):
        pass


    class Publisher(Base):
        __tablename__ = "publishers"
        id: Mapped[int] = mapped_column(Integer, primary_key=True)
        name: Mapped[str] = mapped_column(String(120), nullable=False)
        city: Mapped[str] = mapped_column(String(80), nullable=False)
        books = relationship("Book", back_populates="publisher")

        def __str__(self):
            return self.name


    class Author(Base):
        __tablename__ = "authors"
        id: Mapped[int] = mapped_column(Integer, primary_key=True)
        name: Mapped[str] = mapped_column(String(120), nullable=False)
        country: Mapped[str] = mapped_column(String(80), nullable=False)
        born: Mapped[int] = mapped_column(Integer, nullable=True)
        books = relationship("Book", back_populates="author")

        def __str__(self):
            return self.name


    class Book(Base):
        __tablename__ = "books"
        id: Mapped[int] = mapped_column(Integer, primary_key=True)
        title: Mapped[str] = mapped_column(String(200), nullable=False)
        isbn: Mapped[str] = mapped_column(String(20), nullable=False)
        genre: Mapped[str] = mapped_column(String(40), nullable=False)
        price: Mapped[float] = mapped_column(Float, nullable=False)
        in_print: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
        published: Mapped[datetime.date] = mapped_column(Date, nullable=True)
        author_id: Mapped[int] = mapped_column(ForeignKey("authors.id"), nullable=True)
        publisher_id: Mapped[int] = mapped_column(ForeignKey("publishers.id"), nullable=True)
        author = relationship("Author", back_populates="books")
        publisher = relationship("Publisher", back_populates="books")

        def __str__(self):
            return self.title


    class BookAdmin(ModelView, model=Book):
        name = "Book"
        name_plural = "Books"
        icon = "fa-solid fa-book"
        column_list = [
            Book.id, Book.title, Book.author, Book.genre, Book.price, Book.in_print,
            Book.published,
        ]
        column_labels = {
            Book.title: "Title", Book.isbn: "ISBN", Book.genre: "Genre", Book.price: "Price",
            Book.in_print: "In print", Book.published: "Published on", Book.author: "Author",
            Book.publisher: "Publisher",
        }
        column_searchable_list = [Book.title, Book.isbn]
        column_sortable_list = [Book.title, Book.price, Book.published]
        column_default_sort = [(Book.title, False)]
        column_filters = [
            BooleanFilter(Book.in_print, title="In print"),
            AllUniqueStringValuesFilter(Book.genre, title="Genre"),
            ForeignKeyFilter(Book.author_id, Author.name, title="Author"),
        ]
        column_details_list = [
            Book.id, Book.title, Book.isbn, Book.author, Book.publisher, Book.genre,
            Book.price, Book.in_print, Book.published,
        ]
        form_columns = [
            Book.title, Book.isbn, Book.author, Book.publisher, Book.genre, Book.price,
            Book.in_print, Book.published,
        ]
        can_export = True
        export_types = ["csv"]
        page_size = 10
        page_size_options = [10, 25, 50]


    class AuthorAdmin(ModelView, model=Author):
        name = "Author"
        name_plural = "Authors"
        icon = "fa-solid fa-user"
        column_list = [Author.id, Author.name, Author.country, Author.born]
        column_labels = {Author.name: "Name", Author.country: "Country", Author.born: "Born"}
        column_searchable_list = [Author.name]
        column_sortable_list = [Author.name, Author.born]
        column_details_list = [Author.id, Author.name, Author.country, Author.born, Author.books]
        form_columns = [Author.name, Author.country, Author.born]


    class PublisherAdmin(ModelView, model=Publisher):
        name = "Publisher"
        name_plural = "Publishers"
        icon = "fa-solid fa-building"
        column_list = [Publisher.id, Publisher.name, Publisher.city]
        column_labels = {Publisher.name: "Name", Publisher.city: "City"}
        form_columns = [Publisher.name, Publisher.city]


    def seed():
        Base.metadata.drop_all(engine)
        Base.metadata.create_all(engine)
        day = datetime.date
        with Session(engine) as s:
            pubs = {
                "Harbor Press": Publisher(name="Harbor Press", city="Lisbon"),
                "Northwind Books": Publisher(name="Northwind Books", city="Oslo"),
                "Blue Owl": Publisher(name="Blue Owl", city="Montreal"),
            }
            authors = {
                "Ursula K. Le Guin": Author(name="Ursula K. Le Guin", country="USA", born=1929),
                "Italo Calvino": Author(name="Italo Calvino", country="Italy", born=1923),
                "Chinua Achebe": Author(name="Chinua Achebe", country="Nigeria", born=1930),
                "Tove Jansson": Author(name="Tove Jansson", country="Finland", born=1914),
                "Jorge Luis Borges": Author(
                    name="Jorge Luis Borges", country="Argentina", born=1899
                ),
            }
            s.add_all(list(pubs.values()) + list(authors.values()))
            rows = [
                ("A Wizard of Earthsea", "978-0-553-38304-2", "Fantasy", 9.99, True,
                 day(1968, 11, 1), "Ursula K. Le Guin", "Harbor Press"),
                ("The Left Hand of Darkness", "978-0-441-47812-5", "Science fiction", 12.5,
                 True, day(1969, 3, 1), "Ursula K. Le Guin", "Harbor Press"),
                ("The Dispossessed", "978-0-06-051275-3", "Science fiction", 13.25, False,
                 day(1974, 5, 1), "Ursula K. Le Guin", "Northwind Books"),
                ("Invisible Cities", "978-0-15-645380-6", "Literary fiction", 11.0, True,
                 day(1972, 11, 1), "Italo Calvino", "Blue Owl"),
                ("If on a Winter's Night a Traveler", "978-0-15-643961-9",
                 "Literary fiction", 14.75, True, day(1979, 6, 1), "Italo Calvino",
                 "Blue Owl"),
                ("The Baron in the Trees", "978-0-15-610680-1", "Literary fiction", 10.5,
                 False, day(1957, 6, 1), "Italo Calvino", "Northwind Books"),
                ("Things Fall Apart", "978-0-385-47454-2", "Literary fiction", 8.95, True,
                 day(1958, 6, 17), "Chinua Achebe", "Harbor Press"),
                ("Arrow of God", "978-0-385-01480-9", "Literary fiction", 12.0, False,
                 day(1964, 1, 1), "Chinua Achebe", "Northwind Books"),
                ("Finn Family Moomintroll", "978-0-374-42307-2", "Children", 7.5, True,
                 day(1948, 1, 1), "Tove Jansson", "Blue Owl"),
                ("The Summer Book", "978-1-59017-268-8", "Literary fiction", 15.0, True,
                 day(1972, 1, 1), "Tove Jansson", "Blue Owl"),
                ("Ficciones", "978-0-8021-3030-3", "Short stories", 13.0, True,
                 day(1944, 1, 1), "Jorge Luis Borges", "Harbor Press"),
                ("The Aleph", "978-0-14-243788-2", "Short stories", 12.75, False,
                 day(1949, 1, 1), "Jorge Luis Borges", "Northwind Books"),
                ("There Was a Country", "978-1-59420-482-8", "Memoir", 16.0, True,
                 day(2012, 10, 11), "Chinua Achebe", "Northwind Books"),
                ("Travelling Light", "978-1-78227-048-3", "Short stories", 11.25, True,
                 day(1987, 1, 1), "Tove Jansson", "Blue Owl"),
                ("Voices", "978-0-15-205678-0", "Fantasy", 9.5, True,
                 day(2006, 9, 1), "Ursula K. Le Guin", "Harbor Press"),
                ("Why Read the Classics?", "978-0-679-44753-1", "Essays", 13.5, True,
                 day(1991, 1, 1), "Italo Calvino", "Blue Owl"),
            ]
            for title, isbn, genre, price, in_print, published, author, pub in rows:
                s.add(
                    Book(
                        title=title, isbn=isbn, genre=genre, price=price, in_print=in_print,
                        published=published, author=authors[author], publisher=pubs[pub],
                    )
                )
            s.commit()


    async def root(request):
        return RedirectResponse("/admin/")


    app = Starlette(routes=[Route("/", root)])
    admin = Admin(app, engine, title="Bookshop Admin")
    admin.add_view(BookAdmin)
    admin.add_view(AuthorAdmin)
    admin.add_view(PublisherAdmin)

    if __name__ == "__main__":
        seed()
        uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
    '''
)


def _install(version: str) -> Path:
    return ensure_venv(f"sqladmin-{version}", list(PINS[version]))


def _start(version: str, workdir: Path) -> Served:
    venv = _install(version)
    (workdir / "app.py").write_text(APP_PY)
    port = free_port()
    argv = [str(venv / "bin" / "python"), "app.py", str(port)]
    proc, log = spawn(argv, cwd=workdir)
    base_url = f"http://127.0.0.1:{port}/"
    wait_http(base_url + "admin/", timeout_s=60, proc=proc)
    return Served(base_url=base_url, process=proc, workdir=workdir, log=log)


APP = AppSpec(
    name="sqladmin",
    kind="CRUD back office (sqladmin on Starlette/SQLAlchemy, Tabler templates)",
    versions=VERSIONS,
    install=_install,
    start=_start,
)
