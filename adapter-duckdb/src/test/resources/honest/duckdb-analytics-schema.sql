-- A small retail and insurance warehouse for DuckDbHonestCorpusTest, generated deterministically
-- (range() and modulo arithmetic, no random()). Statements are separated by a line holding only ;;
-- No column name looks sensitive (SensitiveNames), so nothing an honest query returns is redacted.

CREATE TABLE regions (
    region_id INTEGER PRIMARY KEY,
    region_name VARCHAR NOT NULL,
    country_code VARCHAR,
    opened_on DATE,
    director VARCHAR
)
;;
INSERT INTO regions VALUES
    (1, 'North', 'NO', DATE '2015-03-01', 'Nadia Berg'),
    (2, 'South', 'ES', DATE '2016-07-15', 'Samuel Ortiz'),
    (3, 'East', 'PL', DATE '2017-01-10', 'Ewa Nowak'),
    (4, 'West', 'PT', DATE '2018-05-20', 'Wesley Costa'),
    (5, 'Central', 'DE', DATE '2019-09-01', 'Clara Weiss'),
    (6, 'Islands', 'IS', DATE '2021-02-14', NULL)
;;
CREATE TABLE employees (
    employee_id INTEGER PRIMARY KEY,
    first_name VARCHAR,
    last_name VARCHAR,
    title VARCHAR,
    department VARCHAR,
    manager_id INTEGER,
    region_id INTEGER,
    hired_on DATE,
    salary DECIMAL(10, 2),
    is_remote BOOLEAN
)
;;
-- 1 chief, 2..5 directors under 1, 6..15 managers under the directors, 16..48 staff under the managers
INSERT INTO employees
SELECT i,
       ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Luis', 'Maya'][1 + i % 13],
       ['Andersen', 'Bauer', 'Castillo', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Horvat', 'Ivanova'][1 + (i * 5) % 9],
       CASE WHEN i = 1 THEN 'Chief Executive' WHEN i <= 5 THEN 'Director' WHEN i <= 15 THEN 'Manager'
            WHEN i % 3 = 0 THEN 'Senior Associate' ELSE 'Associate' END,
       ['Sales', 'Operations', 'Finance', 'Claims'][1 + i % 4],
       CASE WHEN i = 1 THEN NULL WHEN i <= 5 THEN 1 WHEN i <= 15 THEN 2 + (i % 4) ELSE 6 + (i % 10) END,
       1 + (i * 7) % 6,
       DATE '2012-01-01' + CAST((i * 97) % 3900 AS INTEGER),
       CAST(CASE WHEN i = 1 THEN 250000 WHEN i <= 5 THEN 160000 + i * 1000 WHEN i <= 15 THEN 95000 + i * 750
                 ELSE 48000 + (i * 1373) % 30000 END AS DECIMAL(10, 2)),
       CASE WHEN i % 5 = 0 THEN NULL ELSE i % 3 = 1 END
FROM range(1, 49) r(i)
;;
CREATE TABLE customers (
    customer_id INTEGER PRIMARY KEY,
    full_name VARCHAR,
    email VARCHAR,
    region_id INTEGER,
    segment VARCHAR,
    signup_date DATE,
    is_active BOOLEAN,
    credit_limit DECIMAL(10, 2),
    referred_by INTEGER,
    loyalty_tier VARCHAR
)
;;
INSERT INTO customers
SELECT i,
       ['Ana', 'Ben', 'Chen', 'Dara', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jade', 'Kofi', 'Lena'][1 + i % 12]
           || ' ' || ['Smith', 'Okafor', 'Lindqvist', 'Tanaka', 'Moreau', 'Rossi', 'Novak', 'Silva', 'Kim', 'Haddad'][1 + (i * 7) % 10],
       'customer' || i || '@example.' || ['com', 'org', 'net'][1 + i % 3],
       1 + (i * 13) % 6,
       ['consumer', 'small_business', 'enterprise'][1 + (i * 5) % 3],
       DATE '2020-01-01' + CAST((i * 37) % 1400 AS INTEGER),
       i % 9 <> 0,
       CASE WHEN i % 11 = 0 THEN NULL ELSE CAST((i * 211) % 5000 + 500 AS DECIMAL(10, 2)) END,
       CASE WHEN i % 4 = 0 AND i > 10 THEN CAST(1 + (i * 3) % (i - 1) AS INTEGER) END,
       CASE WHEN i % 7 = 0 THEN NULL ELSE ['bronze', 'silver', 'gold', 'platinum'][1 + (i * 3) % 4] END
FROM range(1, 601) r(i)
;;
CREATE TABLE products (
    product_id INTEGER PRIMARY KEY,
    product_name VARCHAR,
    category VARCHAR,
    unit_price DECIMAL(10, 2),
    launched_on DATE,
    discontinued BOOLEAN,
    weight_kg DOUBLE,
    tags VARCHAR[]
)
;;
INSERT INTO products
SELECT i,
       ['Trail', 'City', 'Nordic', 'Compact', 'Deluxe', 'Eco', 'Pro', 'Classic'][1 + i % 8] || ' '
           || ['Kettle', 'Backpack', 'Lamp', 'Blender', 'Jacket', 'Tent', 'Mug', 'Speaker', 'Chair', 'Scarf'][1 + (i * 3) % 10]
           || ' ' || i,
       ['kitchen', 'outdoor', 'electronics', 'apparel', 'home'][1 + i % 5],
       CAST(4.99 + (i * 7919) % 40000 / 100.0 AS DECIMAL(10, 2)),
       DATE '2019-06-01' + CAST((i * 53) % 1600 AS INTEGER),
       i % 13 = 0,
       CASE WHEN i % 10 = 0 THEN NULL ELSE round(0.2 + (i * 37) % 150 / 10.0, 1) END,
       CASE WHEN i % 9 = 0 THEN [] ELSE list_slice(['sale', 'new', 'eco', 'gift', 'bulk', 'premium'], 1 + i % 4, 1 + i % 4 + i % 3) END
FROM range(1, 81) r(i)
;;
CREATE TABLE orders (
    order_id INTEGER PRIMARY KEY,
    customer_id INTEGER,
    employee_id INTEGER,
    order_date DATE,
    ship_date DATE,
    status VARCHAR,
    channel VARCHAR,
    shipping_cost DECIMAL(8, 2),
    is_priority BOOLEAN
)
;;
INSERT INTO orders
SELECT i,
       CAST(1 + (i * 7 + i // 13) % 560 AS INTEGER),
       CAST(16 + (i * 11) % 33 AS INTEGER),
       DATE '2022-01-01' + CAST((i * 29) % 1096 AS INTEGER),
       CASE WHEN i % 10 IN (0, 7) THEN NULL ELSE DATE '2022-01-01' + CAST((i * 29) % 1096 + 1 + i % 6 AS INTEGER) END,
       CASE i % 10 WHEN 0 THEN 'cancelled' WHEN 7 THEN 'pending' WHEN 3 THEN 'returned' WHEN 5 THEN 'shipped' ELSE 'delivered' END,
       ['web', 'store', 'phone', 'partner'][1 + (i // 3 + i // 50) % 4],
       CASE WHEN i % 17 = 0 THEN NULL ELSE CAST((i * 7) % 2500 / 100.0 AS DECIMAL(8, 2)) END,
       i % 6 = 0
FROM range(1, 3001) r(i)
;;
CREATE TABLE order_items (
    order_id INTEGER,
    line_no INTEGER,
    product_id INTEGER,
    quantity INTEGER,
    unit_price DECIMAL(10, 2),
    discount DECIMAL(4, 2)
)
;;
INSERT INTO order_items
SELECT o.order_id,
       CAST(l.n AS INTEGER),
       CAST(1 + (o.order_id * 31 + l.n * 17) % 80 AS INTEGER),
       CAST(1 + (o.order_id + l.n * 3) % 6 AS INTEGER),
       p.unit_price,
       CASE WHEN (o.order_id + l.n) % 19 = 0 THEN NULL ELSE [0.00, 0.05, 0.10, 0.15][1 + (o.order_id * l.n) % 4] END
FROM orders o
CROSS JOIN range(1, 5) l(n)
JOIN products p ON p.product_id = 1 + (o.order_id * 31 + l.n * 17) % 80
WHERE l.n <= 1 + o.order_id % 4
;;
CREATE TABLE events (
    event_id BIGINT PRIMARY KEY,
    customer_id INTEGER,
    event_type VARCHAR,
    occurred_at TIMESTAMP,
    duration_ms INTEGER,
    page VARCHAR,
    device STRUCT(os VARCHAR, app_version INTEGER, mobile BOOLEAN),
    attributes MAP(VARCHAR, VARCHAR)
)
;;
INSERT INTO events
SELECT i,
       CAST(1 + (i * 17) % 600 AS INTEGER),
       ['page_view', 'search', 'add_to_cart', 'checkout', 'login', 'page_view'][1 + (i * 5 + i // 7) % 6],
       TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i * 53) MINUTE + INTERVAL (i % 60) SECOND,
       CASE WHEN i % 8 = 0 THEN NULL ELSE CAST(50 + (i * 131) % 9000 AS INTEGER) END,
       CASE WHEN i % 12 = 0 THEN NULL ELSE '/' || ['home', 'catalog', 'product', 'cart', 'help'][1 + i % 5] || '/' || (i % 7) END,
       {'os': ['android', 'ios', 'windows', 'macos', 'linux'][1 + (i * 3) % 5], 'app_version': CAST(10 + i % 5 AS INTEGER), 'mobile': (i * 3) % 5 < 2},
       MAP {'campaign': ['spring', 'summer', 'none'][1 + i % 3], 'ref': ['ads', 'mail', 'direct', 'social'][1 + i % 4]}
FROM range(1, 4001) r(i)
;;
CREATE TABLE insurance_claims (
    claim_id INTEGER PRIMARY KEY,
    customer_id INTEGER,
    region_id INTEGER,
    policy_type VARCHAR,
    claim_amount DECIMAL(12, 2),
    approved_amount DECIMAL(12, 2),
    filed_on DATE,
    settled_on DATE,
    claim_status VARCHAR,
    adjuster_scores INTEGER[]
)
;;
INSERT INTO insurance_claims
SELECT i,
       CAST(1 + (i * 19) % 600 AS INTEGER),
       CAST(1 + (i * 5) % 6 AS INTEGER),
       ['auto', 'home', 'travel', 'health'][1 + (i * 7) % 4],
       CAST(150 + (i * 7919) % 250000 / 10.0 AS DECIMAL(12, 2)),
       CASE WHEN i % 5 IN (0, 1) THEN NULL ELSE CAST((150 + (i * 7919) % 250000 / 10.0) * (0.5 + (i % 5) / 10.0) AS DECIMAL(12, 2)) END,
       DATE '2023-01-01' + CAST((i * 41) % 730 AS INTEGER),
       CASE WHEN i % 5 IN (0, 1) THEN NULL ELSE DATE '2023-01-01' + CAST((i * 41) % 730 + 5 + (i * 3) % 90 AS INTEGER) END,
       CASE i % 5 WHEN 0 THEN 'open' WHEN 1 THEN 'denied' WHEN 2 THEN 'approved' WHEN 3 THEN 'paid' ELSE 'paid' END,
       CASE WHEN i % 6 = 0 THEN NULL ELSE [CAST(1 + i % 5 AS INTEGER), CAST(1 + (i * 3) % 5 AS INTEGER), CAST(1 + (i * 7) % 5 AS INTEGER)] END
FROM range(1, 1501) r(i)
;;
CREATE TABLE quarterly_targets (
    region_id INTEGER,
    target_year INTEGER,
    q1 DECIMAL(12, 2),
    q2 DECIMAL(12, 2),
    q3 DECIMAL(12, 2),
    q4 DECIMAL(12, 2)
)
;;
INSERT INTO quarterly_targets
SELECT CAST(r AS INTEGER), CAST(y AS INTEGER),
       CAST(10000 + r * 1500 + (y - 2022) * 800 AS DECIMAL(12, 2)),
       CAST(11000 + r * 1400 + (y - 2022) * 900 AS DECIMAL(12, 2)),
       CASE WHEN r = 6 AND y = 2024 THEN NULL ELSE CAST(12500 + r * 1300 + (y - 2022) * 700 AS DECIMAL(12, 2)) END,
       CAST(15000 + r * 1700 + (y - 2022) * 1000 AS DECIMAL(12, 2))
FROM range(1, 7) a(r), range(2022, 2025) b(y)
