"""Vendure: a headless shop whose admin is an Angular single-page app (Clarity components) over
a NestJS GraphQL server, the shop's data in SQLite. A tea merchant keeps its shop in it: the
navigation ("Inventory", "Facets", "Collections", "Assets", "Orders", "Customers", "Customer
groups", "Promotions", the settings and system groups), the products list (a row per product,
its name a link, "Filter by name"), a product's form ("Product name", "Slug", "Description", its
options and facets), the orders list (a row per order: its code, the customer's name as a link;
"Search by name / code / transaction ID"), an order (its lines, "Order history" with a note box,
"Note is private" and "Add note"), the customers list and a customer's form, a new promotion's
form, the global settings and the tax rates.

A held-out app (docs/real-apps.md, "Held-out split"): its flows and truth were written from
what 2.0.0 shows, and committed before any engine run on it. Both versions are npm's
``@vendure/core`` with ``@vendure/admin-ui-plugin`` (the admin app built, inside the package)
and ``sql.js`` 1.10.3 (SQLite compiled to WebAssembly, inside its package: no native build for
the database), installed by ``_node.locked_install`` from the lock file npm wrote when the
corpus entry was made (``vendure_locks/<version>.json``); ``bcrypt`` (the passwords' hash) is
built from its source. 3.7.3 is the newest release here; it runs on Node 20 (npm warns that
two ``@whatwg-node`` helpers ask for Node 22.15; the server started and served every page).
The drift is the app's own, over two major releases: the navigation's "Inventory" became
"Products" and its address ``catalog/inventory`` became ``catalog/products`` (the old address
shows an empty page on 3.7.3), the products list's "Filter by name" became "Search by product
name or SKU" and lost its "Stock locations" tab (now under the settings), the lists' "Add
filter" gained a key hint ("Add filter F") and "Save as preset", an order's lines link to
their product, a promotion has "Total usage limit".

Every start uses a fresh work folder: the server script (:data:`SERVER_JS`), the SQLite file,
and a copy of the admin app (the plugin writes its settings and base address into the app's
folder at every start; a copy keeps the installed package as installed). The server binds
127.0.0.1 at a free port with a preload that resolves loopback names only
(``_node.LOOPBACK_DNS``) and 3.x's telemetry off (``VENDURE_DISABLE_TELEMETRY``), fills the
empty database with Vendure's own ``populate`` (the zone "Europe" with three countries, the tax
rates "Standard Tax" 20% and "Reduced Tax" 5%, two shipping methods, the payment method "Card
Payment" with Vendure's test handler, and six products from :data:`PRODUCTS_CSV` through its
importer), then starts its job queue in the same process (the search index the products list
reads). The admin's sign-in page shows a photo that it asks ``login-image.vendure.io`` for;
offline that request fails and the app reports "Could not connect to the Vendure server" over
the sign-in form, so the admin is configured with Vendure's own ``loginImageUrl`` option to
show a local image instead (a plain SVG the module writes into the copied app). The module then
seeds through the Shop API: four orders placed by guests (Ada Lovelace, Chloe Martin, Brian
Okafor, Dev Patel), each paid with the test handler (the state "Payment authorized"); the
orders' codes are random, their ids 1-4 are not."""

from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from realapps.apps._node import locked_install, loopback_preload
from realapps.harness import AppSpec, Served, free_port, serve

VERSIONS = ("2.0.0", "3.7.3")
LOCKS = Path(__file__).resolve().parent / "vendure_locks"
USER, PASSWORD = "superadmin", "Tea-Shop-2024!"
#: the built ``bcrypt`` of each version (5.1.1 builds into ``lib/binding``, 6.0.0 into ``build``)
BCRYPT = {
    "2.0.0": "node_modules/bcrypt/lib/binding/napi-v3/bcrypt_lib.node",
    "3.7.3": "node_modules/bcrypt/build/Release/bcrypt_lib.node",
}

SERVER_JS = """// Vendure for the real-app corpus (bench/realapps/apps/vendure.py).
// argv: port, SQLite file, admin app folder, products CSV
const [port, dbFile, adminUi, csvFile] = process.argv.slice(2);
const core = require('@vendure/core');
const { populate } = require('@vendure/core/cli');
const { AdminUiPlugin } = require('@vendure/admin-ui-plugin');
const config = {
  apiOptions: { port: Number(port), hostname: '127.0.0.1',
                adminApiPath: 'admin-api', shopApiPath: 'shop-api' },
  authOptions: {
    tokenMethod: 'cookie',
    superadminCredentials: { identifier: process.env.VENDURE_USER,
                             password: process.env.VENDURE_PASSWORD },
    cookieOptions: { secret: 'pacts-realapps-vendure' },
  },
  dbConnectionOptions: { type: 'sqljs', location: dbFile, autoSave: true,
                         synchronize: true, logging: false },
  paymentOptions: { paymentMethodHandlers: [core.dummyPaymentHandler] },
  logger: new core.DefaultLogger({ level: core.LogLevel.Warn }),
  plugins: [
    core.DefaultSearchPlugin.init({ bufferUpdates: false, indexStockStatus: false }),
    AdminUiPlugin.init({ route: 'admin', port: Number(port) + 1, app: { path: adminUi },
                         adminUiConfig: { loginImageUrl: 'assets/pacts-login.svg' } }),
  ],
};
const initialData = {
  defaultLanguage: core.LanguageCode.en,
  defaultZone: 'Europe',
  taxRates: [{ name: 'Standard Tax', percentage: 20 }, { name: 'Reduced Tax', percentage: 5 }],
  shippingMethods: [{ name: 'Standard Shipping', price: 450 },
                    { name: 'Express Shipping', price: 990 }],
  paymentMethods: [{ name: 'Card Payment', handler: { code: core.dummyPaymentHandler.code,
    arguments: [{ name: 'automaticSettle', value: 'false' }] } }],
  collections: [],
  countries: [
    { name: 'United Kingdom', code: 'GB', zone: 'Europe' },
    { name: 'Ireland', code: 'IE', zone: 'Europe' },
    { name: 'France', code: 'FR', zone: 'Europe' },
  ],
};
populate(() => core.bootstrap(config), initialData, csvFile).then(async (app) => {
  await app.get(core.JobQueueService).start();
  console.log('pacts: ready');
}, (err) => { console.error(err); process.exit(1); });
"""

#: Vendure's product import format: a row per variant, a product's first row names it
PRODUCTS_CSV = """\
name,slug,description,assets,facets,optionGroups,optionValues,sku,price,taxCategory,stockOnHand,trackInventory,variantAssets,variantFacets
Assam Breakfast Tea,assam-breakfast-tea,A malty black tea for strong mornings.,,Category:Black tea,Size,100g,ASSAM-100,6.50,Reduced Tax,120,false,,
,,,,,,250g,ASSAM-250,13.00,Reduced Tax,80,false,,
Earl Grey,earl-grey,Black tea scented with bergamot.,,Category:Black tea,Size,100g,EARL-100,7.00,Reduced Tax,90,false,,
,,,,,,250g,EARL-250,14.50,Reduced Tax,40,false,,
Sencha Green Tea,sencha-green-tea,A grassy steamed green tea from Shizuoka.,,Category:Green tea,,,SENCHA-100,9.00,Reduced Tax,60,false,,
Chamomile Blossom,chamomile-blossom,Whole chamomile flowers for the evening.,,Category:Herbal,,,CHAMO-50,5.50,Reduced Tax,75,false,,
Cast Iron Teapot,cast-iron-teapot,A 900 ml teapot with a steel infuser.,,Category:Teaware,,,POT-900,42.00,Standard Tax,12,false,,
Bamboo Tea Whisk,bamboo-tea-whisk,A hundred-prong whisk for matcha.,,Category:Teaware,,,WHISK-100,16.00,Standard Tax,25,false,,
"""  # noqa: E501

#: the sign-in page's picture (``loginImageUrl``): a plain panel, drawn from the app's folder
LOGIN_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">'
    '<rect width="800" height="600" fill="#5b7f6a"/></svg>\n'
)

# (email, first name, last name, country, [(sku, quantity)]), placed in this order
ORDERS: tuple[tuple[str, str, str, str, tuple[tuple[str, int], ...]], ...] = (
    ("ada@example.com", "Ada", "Lovelace", "GB", (("ASSAM-250", 2), ("POT-900", 1))),
    ("chloe@example.com", "Chloe", "Martin", "FR", (("SENCHA-100", 3),)),
    ("brian@example.com", "Brian", "Okafor", "IE", (("EARL-100", 1), ("WHISK-100", 1))),
    ("dev@example.com", "Dev", "Patel", "GB", (("CHAMO-50", 2),)),
)


def _install(version: str) -> Path:
    """``<cache>/vendure-<version>``: ``npm ci --ignore-scripts`` from the committed lock
    file, then ``bcrypt`` built from source (``_node.locked_install``)."""
    package = {
        "name": "pacts-vendure",
        "version": "0.0.0",
        "private": True,
        "dependencies": {
            "@vendure/core": version,
            "@vendure/admin-ui-plugin": version,
            "sql.js": "1.10.3",
        },
    }
    return locked_install(
        f"vendure-{version}",
        package,
        LOCKS / f"{version}.json",
        markers=(BCRYPT[version],),
        native=(("bcrypt", 900),),
    )


Gql = Callable[..., dict[str, object]]


def _client(base_url: str) -> Gql:
    """A GraphQL caller with its own cookie jar (a session of its own)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )

    def gql(api: str, query: str, variables: dict[str, object] | None = None) -> dict[str, object]:
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        request = urllib.request.Request(
            base_url + api, data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        with opener.open(request, timeout=60) as answer:
            out = json.load(answer)
        if out.get("errors"):
            raise RuntimeError(f"{query[:60]}: {out['errors']}")
        data: dict[str, object] = out["data"]
        for value in data.values():  # a mutation's error result (its __typename's fields)
            if isinstance(value, dict) and "message" in value:
                raise RuntimeError(f"{query[:60]}: {value['message']}")
        return data

    return gql


def _populated(log: Path, timeout_s: float) -> None:
    """Wait for the server script's "pacts: ready" (``populate`` done, the job queue started):
    the server answers while ``populate`` still imports (it is the server that imports)."""
    deadline = time.monotonic() + timeout_s
    while b"pacts: ready" not in log.read_bytes():
        if time.monotonic() > deadline:
            raise TimeoutError(f"Vendure's populate did not finish within {timeout_s:.0f} s")
        time.sleep(0.5)


def _variants(shop: Gql) -> dict[str, str]:
    """Every variant's id by its SKU."""
    found = shop("shop-api", "{ products { items { variants { id sku } } } }")
    products = found["products"]["items"]  # type: ignore[index]
    return {v["sku"]: v["id"] for p in products for v in p["variants"]}


def seed(base_url: str, log: Path) -> None:
    """Once the products are imported (:func:`_populated`), the four orders, each in a guest's
    own Shop API session (items, the customer, the address, the first shipping method, then
    payment with the test handler); then the search index rebuilt and waited for (the products
    list reads it)."""
    _populated(log, 300)
    skus = _variants(_client(base_url))
    for email, first, last, country, lines in ORDERS:
        shop = _client(base_url)
        for sku, quantity in lines:
            shop("shop-api", "mutation($v: ID!, $q: Int!) { addItemToOrder(productVariantId: $v,"
                 " quantity: $q) { ... on Order { code } ... on ErrorResult { message } } }",
                 {"v": skus[sku], "q": quantity})  # fmt: skip
        shop("shop-api", "mutation($i: CreateCustomerInput!) { setCustomerForOrder(input: $i) {"
             " ... on Order { code } ... on ErrorResult { message } } }",
             {"i": {"firstName": first, "lastName": last, "emailAddress": email}})  # fmt: skip
        address = {"fullName": f"{first} {last}", "streetLine1": "1 High Street", "city": "Bath",
                   "postalCode": "BA1 1AA", "countryCode": country}  # fmt: skip
        shop("shop-api", "mutation($i: CreateAddressInput!) { setOrderShippingAddress(input: $i)"
             " { ... on Order { code } } }", {"i": address})  # fmt: skip
        methods = shop("shop-api", "{ eligibleShippingMethods { id name } }")
        standard = methods["eligibleShippingMethods"][0]["id"]  # type: ignore[index]
        shop("shop-api", "mutation($s: [ID!]!) { setOrderShippingMethod(shippingMethodId: $s) {"
             " ... on Order { code } ... on ErrorResult { message } } }",
             {"s": [standard]})  # fmt: skip
        shop("shop-api", 'mutation { transitionOrderToState(state: "ArrangingPayment") {'
             " ... on Order { code } ... on ErrorResult { message } } }")  # fmt: skip
        payment = shop("shop-api", "{ eligiblePaymentMethods { code } }")
        code = payment["eligiblePaymentMethods"][0]["code"]  # type: ignore[index]
        shop("shop-api", "mutation($i: PaymentInput!) { addPaymentToOrder(input: $i) {"
             " ... on Order { code } ... on ErrorResult { message } } }",
             {"i": {"method": code, "metadata": {}}})  # fmt: skip
    admin = _client(base_url)
    admin("admin-api", "mutation($u: String!, $p: String!) { login(username: $u, password: $p)"
          " { ... on CurrentUser { id } ... on ErrorResult { message } } }",
          {"u": USER, "p": PASSWORD})  # fmt: skip
    admin("admin-api", "mutation { reindex { id } }")
    deadline = time.monotonic() + 120
    while True:
        found = admin("shop-api", "{ search(input: {groupByProduct: true}) { totalItems } }")
        if found["search"]["totalItems"] == 6:  # type: ignore[index]
            return
        if time.monotonic() > deadline:
            raise TimeoutError("Vendure's search index was not rebuilt within 120 s")
        time.sleep(0.5)


def _start(version: str, workdir: Path) -> Served:
    folder = _install(version)
    port = free_port()
    built = folder / "node_modules" / "@vendure" / "admin-ui-plugin" / "lib" / "admin-ui"
    shutil.copytree(built, workdir / "admin-ui")
    # 2.x has the app at the folder's top, 3.x in its ``browser`` folder
    app = workdir / "admin-ui" / "browser"
    app = app if app.is_dir() else workdir / "admin-ui"
    (app / "assets").mkdir(exist_ok=True)
    (app / "assets" / "pacts-login.svg").write_text(LOGIN_SVG)
    (workdir / "server.js").write_text(SERVER_JS)
    (workdir / "products.csv").write_text(PRODUCTS_CSV)
    preload = loopback_preload(workdir)
    env = {
        "HOME": str(workdir),
        "PATH": os.environ.get("PATH", ""),
        "NODE_PATH": str(folder / "node_modules"),
        "NODE_ENV": "production",
        "VENDURE_USER": USER,
        "VENDURE_PASSWORD": PASSWORD,
        # 3.x posts usage telemetry to its maker after a delay (the preload would refuse the
        # name; no page waits on it): off, as Vendure documents
        "VENDURE_DISABLE_TELEMETRY": "true",
    }
    argv = ["node", "--require", str(preload), str(workdir / "server.js"), str(port),
            str(workdir / "shop.sqlite"), str(app), str(workdir / "products.csv")]  # fmt: skip
    return serve(argv, port=port, cwd=workdir, workdir=workdir, ready="admin/",
                 env=env, timeout_s=300,
                 then=lambda url: seed(url, workdir / "server.log"))  # fmt: skip


APP = AppSpec(
    name="vendure",
    kind="shop admin (Vendure Admin UI, Angular single-page app, Clarity): products list and "
    "form, orders list and an order's history notes, customers, a promotion's form, tax rates "
    "and global settings",
    versions=VERSIONS,
    install=_install,
    start=_start,
    env={"PACTS_VENDURE_USER": USER, "PACTS_VENDURE_PASSWORD": PASSWORD},
)
