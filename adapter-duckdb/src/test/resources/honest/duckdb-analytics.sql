-- Honest analytical queries, the kind an LLM agent writes for business questions, run by
-- DuckDbHonestCorpusTest guarded and raw over duckdb-analytics-schema.sql: both must return the same rows.
--
-- Format: one query per entry, entries separated by a line holding only ;;
-- Full-line comments (starting with --) are not part of the query. Two of them carry meaning:
--   -- params: [JSON array]        positional values for the query's ? placeholders
--   -- KNOWN REFUSAL: <why>        the guard refuses this honest query today (the test reports it, and
--                                  fails if it starts to pass, so the marker gets removed)
--   -- KNOWN MISMATCH: <why>       the guard runs it but returns other rows than DuckDB does
-- Every result has fewer than 1,000 rows, and its order is total (ORDER BY enough columns) or
-- the query has no top-level ORDER BY and is compared as a multiset.

-- ===== Plain aggregates and filters =====

-- average claim amount by region
SELECT r.region_name, round(avg(c.claim_amount), 2) AS avg_claim, count(*) AS claims
FROM insurance_claims c JOIN regions r ON r.region_id = c.region_id
GROUP BY r.region_name
ORDER BY r.region_name
;;
SELECT count(*) AS orders, count(ship_date) AS shipped, count(DISTINCT customer_id) AS buyers FROM orders
;;
SELECT status, count(*) AS n, sum(shipping_cost) AS shipping, min(order_date) AS first_order, max(order_date) AS last_order
FROM orders
GROUP BY status
ORDER BY n DESC, status
;;
SELECT category, count(*) AS products, avg(unit_price) AS avg_price, max(unit_price) AS max_price
FROM products
WHERE NOT discontinued
GROUP BY category
HAVING count(*) > 5
ORDER BY category
;;
SELECT segment, loyalty_tier, count(*) AS customers, sum(credit_limit) AS total_credit
FROM customers
WHERE is_active
GROUP BY segment, loyalty_tier
ORDER BY segment, loyalty_tier NULLS LAST
;;
SELECT policy_type, claim_status, count(*) AS n, sum(claim_amount) AS claimed, sum(approved_amount) AS approved
FROM insurance_claims
GROUP BY 1, 2
ORDER BY 1, 2
;;
SELECT department, count(*) AS headcount, round(avg(salary), 0) AS avg_salary, min(hired_on) AS earliest_hire
FROM employees
GROUP BY department
ORDER BY headcount DESC, department
;;
SELECT channel, sum(oi.quantity * oi.unit_price) AS gross_revenue
FROM orders o JOIN order_items oi ON oi.order_id = o.order_id
WHERE o.status <> 'cancelled'
GROUP BY channel
ORDER BY gross_revenue DESC
;;
SELECT product_id, sum(quantity) AS units
FROM order_items
GROUP BY product_id
ORDER BY units DESC, product_id
LIMIT 10
;;
SELECT event_type, count(*) AS events, avg(duration_ms) AS avg_ms, stddev_samp(duration_ms) AS sd_ms
FROM events
GROUP BY event_type
ORDER BY event_type
;;
SELECT count(*) AS missing_limit FROM customers WHERE credit_limit IS NULL
;;
SELECT customer_id, full_name, credit_limit
FROM customers
WHERE credit_limit BETWEEN 4000 AND 4100
ORDER BY credit_limit, customer_id
;;
SELECT product_name, unit_price FROM products WHERE product_name LIKE 'Eco%' ORDER BY product_id
;;
SELECT full_name, email FROM customers WHERE email ILIKE '%@EXAMPLE.NET' AND customer_id < 40 ORDER BY customer_id
;;
SELECT region_id, count(*) AS customers FROM customers WHERE segment IN ('enterprise', 'small_business') GROUP BY region_id ORDER BY region_id
;;
SELECT min(claim_amount) AS smallest, max(claim_amount) AS largest, sum(claim_amount) AS total, avg(claim_amount) AS mean
FROM insurance_claims
WHERE filed_on >= DATE '2024-01-01'
;;
SELECT count_if(is_priority) AS priority_orders, bool_or(is_priority) AS any_priority, bool_and(ship_date IS NOT NULL) AS all_shipped
FROM orders
;;
SELECT corr(quantity, unit_price) AS qty_price_corr, regr_slope(quantity, unit_price) AS slope FROM order_items
;;
SELECT category, mode(discontinued) AS usual_discontinued, arg_max(product_name, product_id) AS newest_product
FROM products GROUP BY category ORDER BY category
;;
SELECT round(sum(approved_amount) / sum(claim_amount), 4) AS approval_ratio
FROM insurance_claims WHERE approved_amount IS NOT NULL
;;
FROM orders SELECT channel, count(*) AS n GROUP BY channel ORDER BY channel
;;
SELECT DISTINCT segment FROM customers ORDER BY segment
;;
SELECT DISTINCT region_id, segment FROM customers ORDER BY region_id, segment
;;
SELECT count(DISTINCT product_id) AS sold_products, count(DISTINCT order_id) AS orders_with_items FROM order_items
;;

-- ===== Joins =====

-- inner joins over three and four tables
SELECT r.region_name, p.category, sum(oi.quantity) AS units
FROM order_items oi
JOIN orders o ON o.order_id = oi.order_id
JOIN customers c ON c.customer_id = o.customer_id
JOIN regions r ON r.region_id = c.region_id
JOIN products p ON p.product_id = oi.product_id
GROUP BY r.region_name, p.category
ORDER BY r.region_name, p.category
;;
SELECT c.customer_id, c.full_name, count(o.order_id) AS orders
FROM customers c
INNER JOIN orders o ON o.customer_id = c.customer_id
GROUP BY c.customer_id, c.full_name
ORDER BY orders DESC, c.customer_id
LIMIT 15
;;
SELECT e.first_name, e.last_name, r.region_name
FROM employees e JOIN regions r ON e.region_id = r.region_id
WHERE e.title = 'Manager'
ORDER BY e.employee_id
;;
-- left joins: customers without orders, products never sold
SELECT c.customer_id, c.full_name
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id
WHERE o.order_id IS NULL
ORDER BY c.customer_id
;;
SELECT p.product_id, p.product_name, coalesce(sum(oi.quantity), 0) AS units
FROM products p LEFT JOIN order_items oi ON oi.product_id = p.product_id
GROUP BY p.product_id, p.product_name
ORDER BY units, p.product_id
LIMIT 10
;;
SELECT r.region_name, count(c.claim_id) AS claims, sum(c.claim_amount) AS amount
FROM regions r LEFT OUTER JOIN insurance_claims c ON c.region_id = r.region_id AND c.policy_type = 'travel'
GROUP BY r.region_name
ORDER BY r.region_name
;;
SELECT r.region_name, e.employee_id
FROM regions r LEFT JOIN employees e ON e.region_id = r.region_id AND e.title = 'Director'
ORDER BY r.region_name, e.employee_id NULLS FIRST
;;
-- right and full outer joins
SELECT r.region_name, t.target_year, t.q1
FROM quarterly_targets t RIGHT JOIN regions r ON r.region_id = t.region_id AND t.target_year = 2024
ORDER BY r.region_name
;;
SELECT coalesce(a.region_id, b.region_id) AS region_id, a.customers, b.claims
FROM (SELECT region_id, count(*) AS customers FROM customers WHERE segment = 'enterprise' GROUP BY region_id) a
FULL OUTER JOIN (SELECT region_id, count(*) AS claims FROM insurance_claims WHERE policy_type = 'home' GROUP BY region_id) b
  ON a.region_id = b.region_id
ORDER BY region_id
;;
SELECT coalesce(o.m, c.m) AS month, o.orders, c.claims
FROM (SELECT date_trunc('month', order_date) AS m, count(*) AS orders FROM orders WHERE order_date >= DATE '2023-07-01' GROUP BY 1) o
FULL JOIN (SELECT date_trunc('month', filed_on) AS m, count(*) AS claims FROM insurance_claims WHERE filed_on < DATE '2024-03-01' GROUP BY 1) c
  ON o.m = c.m
ORDER BY month
;;
SELECT region_id, c.customers, t.q1
FROM (SELECT region_id, count(*) AS customers FROM customers WHERE region_id <= 4 GROUP BY region_id) c
FULL JOIN (SELECT region_id, q1 FROM quarterly_targets WHERE target_year = 2024 AND region_id >= 3) t USING (region_id)
ORDER BY region_id
;;
-- self joins: employee and manager, customers and who referred them
SELECT e.employee_id, e.first_name AS employee, m.first_name AS manager, m.title AS manager_title
FROM employees e LEFT JOIN employees m ON m.employee_id = e.manager_id
ORDER BY e.employee_id
;;
SELECT m.employee_id, m.first_name, count(e.employee_id) AS direct_reports
FROM employees m JOIN employees e ON e.manager_id = m.employee_id
GROUP BY m.employee_id, m.first_name
ORDER BY direct_reports DESC, m.employee_id
;;
SELECT c.customer_id, c.full_name, r.full_name AS referrer
FROM customers c JOIN customers r ON r.customer_id = c.referred_by
WHERE c.customer_id <= 120
ORDER BY c.customer_id
;;
SELECT e.employee_id, e.salary, m.salary AS manager_salary
FROM employees e JOIN employees m ON e.manager_id = m.employee_id
WHERE e.salary > m.salary * 0.6
ORDER BY e.employee_id
;;
-- USING and NATURAL joins
SELECT region_id, r.region_name, count(*) AS customers
FROM customers JOIN regions r USING (region_id)
GROUP BY region_id, r.region_name
ORDER BY region_id
;;
SELECT order_id, count(*) AS lines, sum(quantity) AS units
FROM orders JOIN order_items USING (order_id)
WHERE customer_id = 42
GROUP BY order_id
ORDER BY order_id
;;
SELECT customer_id, full_name, order_id, order_date
FROM orders NATURAL JOIN customers
WHERE customer_id = 7
ORDER BY order_id
;;
SELECT region_name, segment, count(*) AS n
FROM customers NATURAL JOIN regions
GROUP BY region_name, segment
ORDER BY region_name, segment
;;
SELECT * FROM regions JOIN quarterly_targets USING (region_id) WHERE target_year = 2023 ORDER BY region_id
;;
SELECT region_id, region_name, target_year, q4 FROM regions NATURAL LEFT JOIN quarterly_targets WHERE region_id > 4 ORDER BY region_id, target_year
;;
-- cross joins and comma joins
SELECT r.region_name, s.segment
FROM regions r CROSS JOIN (SELECT DISTINCT segment FROM customers) s
ORDER BY r.region_name, s.segment
;;
SELECT r.region_name, y.yr, count(c.claim_id) AS claims
FROM regions r, (VALUES (2023), (2024)) y(yr), insurance_claims c
WHERE c.region_id = r.region_id AND year(c.filed_on) = y.yr
GROUP BY r.region_name, y.yr
ORDER BY r.region_name, y.yr
;;
SELECT p.category, r.region_name, count(*) AS combos FROM products p, regions r WHERE p.unit_price > 330 GROUP BY ALL ORDER BY ALL
;;
-- DuckDB join kinds agents also reach for
SELECT c.customer_id, c.full_name FROM customers c SEMI JOIN orders o ON o.customer_id = c.customer_id AND o.is_priority
WHERE c.customer_id < 30 ORDER BY c.customer_id
;;
SELECT c.customer_id FROM customers c ANTI JOIN orders o ON o.customer_id = c.customer_id ORDER BY c.customer_id LIMIT 20
;;
SELECT o.order_id, o.order_date, t.target_year, t.q1
FROM orders o ASOF JOIN quarterly_targets t ON t.region_id = 1 AND make_date(t.target_year, 1, 1) <= o.order_date
WHERE o.order_id <= 10
ORDER BY o.order_id
;;
SELECT o.order_id, c.region_id, oi.line_no, oi.product_id
FROM orders o
JOIN customers c ON o.customer_id = c.customer_id
LEFT JOIN order_items oi ON oi.order_id = o.order_id AND oi.line_no = 1
WHERE o.order_id BETWEEN 100 AND 120
ORDER BY o.order_id
;;
SELECT p.category, o.channel, round(avg(oi.discount), 3) AS avg_discount
FROM order_items oi JOIN products p ON p.product_id = oi.product_id JOIN orders o ON o.order_id = oi.order_id
GROUP BY p.category, o.channel
ORDER BY p.category, o.channel
;;
SELECT e.employee_id, count(o.order_id) AS orders, sum(o.shipping_cost) AS shipping
FROM employees e LEFT JOIN orders o ON o.employee_id = e.employee_id AND o.order_date >= DATE '2024-06-01'
WHERE e.department = 'Sales'
GROUP BY e.employee_id
ORDER BY e.employee_id
;;

-- ===== Common table expressions =====

WITH revenue AS (
    SELECT o.customer_id, sum(oi.quantity * oi.unit_price) AS revenue
    FROM orders o JOIN order_items oi ON oi.order_id = o.order_id
    GROUP BY o.customer_id
)
SELECT c.segment, count(*) AS customers, round(avg(r.revenue), 2) AS avg_revenue
FROM revenue r JOIN customers c ON c.customer_id = r.customer_id
GROUP BY c.segment
ORDER BY c.segment
;;
WITH order_totals AS (
    SELECT order_id, sum(quantity * unit_price * (1 - coalesce(discount, 0))) AS net
    FROM order_items GROUP BY order_id
),
by_customer AS (
    SELECT o.customer_id, count(*) AS orders, sum(t.net) AS net
    FROM orders o JOIN order_totals t USING (order_id)
    GROUP BY o.customer_id
),
ranked AS (
    SELECT customer_id, orders, net, rank() OVER (ORDER BY net DESC) AS rnk FROM by_customer
)
SELECT customer_id, orders, round(net, 2) AS net, rnk FROM ranked WHERE rnk <= 10 ORDER BY rnk, customer_id
;;
-- one CTE used twice
WITH monthly AS (
    SELECT date_trunc('month', order_date) AS month, count(*) AS orders
    FROM orders GROUP BY 1
)
SELECT cur.month, cur.orders, prev.orders AS previous_orders
FROM monthly cur LEFT JOIN monthly prev ON prev.month = cur.month - INTERVAL 1 MONTH
ORDER BY cur.month
;;
WITH stats AS (SELECT avg(claim_amount) AS mean, stddev_pop(claim_amount) AS sd FROM insurance_claims)
SELECT c.claim_id, c.claim_amount
FROM insurance_claims c, stats s
WHERE c.claim_amount > s.mean + 1.6 * s.sd
ORDER BY c.claim_id
;;
WITH active AS (SELECT customer_id, region_id FROM customers WHERE is_active),
     claimers AS (SELECT DISTINCT customer_id FROM insurance_claims)
SELECT a.region_id, count(*) AS active_customers, count(cl.customer_id) AS with_claims
FROM active a LEFT JOIN claimers cl ON cl.customer_id = a.customer_id
GROUP BY a.region_id
ORDER BY a.region_id
;;
WITH a AS (SELECT region_id, sum(claim_amount) AS claimed FROM insurance_claims GROUP BY region_id),
     b AS (SELECT region_id, claimed, claimed / sum(claimed) OVER () AS share FROM a)
SELECT r.region_name, b.claimed, round(b.share * 100, 2) AS pct
FROM b JOIN regions r USING (region_id)
ORDER BY pct DESC, r.region_name
;;
WITH yearly AS (
    SELECT year(order_date) AS yr, channel, count(*) AS orders FROM orders GROUP BY ALL
),
totals AS (SELECT yr, sum(orders) AS total FROM yearly GROUP BY yr)
SELECT y.yr, y.channel, y.orders, round(100.0 * y.orders / t.total, 1) AS pct_of_year
FROM yearly y JOIN totals t ON t.yr = y.yr
ORDER BY y.yr, y.channel
;;
WITH late AS (SELECT order_id, date_diff('day', order_date, ship_date) AS days FROM orders WHERE ship_date IS NOT NULL)
SELECT days, count(*) AS orders FROM late GROUP BY days ORDER BY days
;;
WITH big_spenders AS (
    SELECT customer_id FROM orders o JOIN order_items oi USING (order_id)
    GROUP BY customer_id HAVING sum(oi.quantity * oi.unit_price) > 4000
)
SELECT c.loyalty_tier, count(*) AS customers
FROM customers c WHERE c.customer_id IN (SELECT customer_id FROM big_spenders)
GROUP BY c.loyalty_tier
ORDER BY c.loyalty_tier NULLS LAST
;;
WITH x AS (SELECT product_id, category, unit_price FROM products),
     y AS (SELECT category, avg(unit_price) AS avg_price FROM x GROUP BY category),
     z AS (SELECT x.product_id, x.category, x.unit_price, y.avg_price FROM x JOIN y USING (category))
SELECT category, count(*) FILTER (WHERE unit_price > avg_price) AS above_avg, count(*) AS products
FROM z GROUP BY category ORDER BY category
;;
WITH params AS (SELECT DATE '2024-01-01' AS start_date, DATE '2024-06-30' AS end_date)
SELECT count(*) AS orders, sum(shipping_cost) AS shipping
FROM orders, params
WHERE order_date BETWEEN params.start_date AND params.end_date
;;
WITH emp AS MATERIALIZED (SELECT employee_id, department, salary FROM employees)
SELECT department, max(salary) AS top_salary, min(salary) AS low_salary FROM emp GROUP BY department ORDER BY department
;;
WITH first_orders AS (
    SELECT customer_id, min(order_date) AS first_order FROM orders GROUP BY customer_id
)
SELECT date_trunc('quarter', first_order) AS cohort, count(*) AS new_customers
FROM first_orders GROUP BY cohort ORDER BY cohort
;;
WITH e AS (SELECT customer_id, count(*) AS events FROM events GROUP BY customer_id),
     o AS (SELECT customer_id, count(*) AS orders FROM orders GROUP BY customer_id)
SELECT CASE WHEN o.orders IS NULL THEN 'no orders' ELSE 'ordered' END AS kind,
       count(*) AS customers, avg(e.events) AS avg_events
FROM e LEFT JOIN o USING (customer_id)
GROUP BY kind ORDER BY kind
;;
WITH cte AS (SELECT region_id, region_name FROM regions)
SELECT a.region_name AS a, b.region_name AS b FROM cte a JOIN cte b ON a.region_id < b.region_id
ORDER BY a, b
;;

-- ===== Recursive CTEs: hierarchy walks and date spines =====

WITH RECURSIVE chain(employee_id, manager_id, depth, path) AS (
    SELECT employee_id, manager_id, 0, first_name || ' ' || last_name FROM employees WHERE manager_id IS NULL
    UNION ALL
    SELECT e.employee_id, e.manager_id, c.depth + 1, c.path || ' > ' || e.first_name
    FROM employees e JOIN chain c ON e.manager_id = c.employee_id
)
SELECT employee_id, depth, path FROM chain ORDER BY employee_id
;;
WITH RECURSIVE chain(employee_id, path) AS (
    SELECT employee_id, [employee_id] FROM employees WHERE manager_id IS NULL
    UNION ALL
    SELECT e.employee_id, list_append(c.path, e.employee_id) FROM employees e JOIN chain c ON e.manager_id = c.employee_id
)
SELECT employee_id, path FROM chain ORDER BY employee_id
;;
WITH RECURSIVE chain(employee_id, path) AS (
    SELECT employee_id, CAST(employee_id AS VARCHAR) FROM employees WHERE manager_id IS NULL
    UNION ALL
    SELECT e.employee_id, c.path || '/' || e.employee_id FROM employees e JOIN chain c ON e.manager_id = c.employee_id
)
SELECT employee_id, path FROM chain WHERE employee_id > 40 ORDER BY employee_id
;;
WITH RECURSIVE chain(employee_id, path) AS (
    SELECT employee_id, first_name FROM employees WHERE manager_id IS NULL
    UNION ALL
    SELECT e.employee_id, c.path || ' > ' || e.first_name FROM employees e JOIN chain c ON e.manager_id = c.employee_id
)
SELECT employee_id, path FROM chain WHERE employee_id <= 20 ORDER BY employee_id
;;
WITH RECURSIVE reports(employee_id) AS (
    SELECT employee_id FROM employees WHERE employee_id = 2
    UNION ALL
    SELECT e.employee_id FROM employees e JOIN reports r ON e.manager_id = r.employee_id
)
SELECT count(*) - 1 AS people_under_employee_2, (SELECT sum(salary) FROM employees WHERE employee_id IN (SELECT employee_id FROM reports)) AS payroll
FROM reports
;;
WITH RECURSIVE up(employee_id, manager_id, lvl) AS (
    SELECT employee_id, manager_id, 1 FROM employees WHERE employee_id = 40
    UNION ALL
    SELECT e.employee_id, e.manager_id, up.lvl + 1 FROM employees e JOIN up ON e.employee_id = up.manager_id
)
SELECT up.lvl, e.employee_id, e.title FROM up JOIN employees e USING (employee_id) ORDER BY up.lvl
;;
WITH RECURSIVE days(d) AS (
    SELECT DATE '2024-02-01'
    UNION ALL
    SELECT d + 1 FROM days WHERE d < DATE '2024-02-29'
)
SELECT days.d, count(o.order_id) AS orders
FROM days LEFT JOIN orders o ON o.order_date = days.d
GROUP BY days.d
ORDER BY days.d
;;
WITH RECURSIVE months(m) AS (
    SELECT DATE '2023-01-01'
    UNION ALL
    SELECT CAST(m + INTERVAL 1 MONTH AS DATE) FROM months WHERE m < DATE '2023-12-01'
)
SELECT m, (SELECT count(*) FROM insurance_claims c WHERE date_trunc('month', c.filed_on) = m) AS claims
FROM months ORDER BY m
;;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
SELECT i AS month_no, monthname(make_date(2024, i, 1)) AS month_name FROM n ORDER BY i
;;
WITH RECURSIVE referral_chain(customer_id, referred_by, hops) AS (
    SELECT customer_id, referred_by, 0 FROM customers WHERE customer_id IN (96, 200, 404)
    UNION ALL
    SELECT c.customer_id, c.referred_by, rc.hops + 1
    FROM customers c JOIN referral_chain rc ON c.customer_id = rc.referred_by
    WHERE rc.hops < 10
)
SELECT customer_id, referred_by, hops FROM referral_chain ORDER BY hops, customer_id
;;
WITH RECURSIVE tree(employee_id, root_director) AS (
    SELECT employee_id, employee_id FROM employees WHERE title = 'Director'
    UNION ALL
    SELECT e.employee_id, t.root_director FROM employees e JOIN tree t ON e.manager_id = t.employee_id
)
SELECT root_director, count(*) AS org_size, sum(e.salary) AS org_payroll
FROM tree JOIN employees e USING (employee_id)
GROUP BY root_director ORDER BY root_director
;;
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0::BIGINT, 1::BIGINT UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 30)
SELECT n, a FROM fib ORDER BY n
;;
WITH RECURSIVE weeks(week_start) AS (
    SELECT DATE '2024-01-01'
    UNION ALL
    SELECT week_start + 7 FROM weeks WHERE week_start + 7 <= DATE '2024-03-31'
)
SELECT w.week_start, count(e.event_id) AS events
FROM weeks w LEFT JOIN events e ON e.occurred_at >= w.week_start AND e.occurred_at < w.week_start + 7
GROUP BY w.week_start ORDER BY w.week_start
;;

-- ===== Window functions =====

SELECT customer_id, order_id, order_date,
       row_number() OVER (PARTITION BY customer_id ORDER BY order_date, order_id) AS nth_order
FROM orders WHERE customer_id <= 20
ORDER BY customer_id, nth_order
;;
SELECT product_id, product_name, category, unit_price,
       rank() OVER (PARTITION BY category ORDER BY unit_price DESC) AS price_rank,
       dense_rank() OVER (ORDER BY category) AS category_no
FROM products
ORDER BY category, price_rank, product_id
;;
SELECT order_id, order_date, shipping_cost,
       lag(shipping_cost) OVER (ORDER BY order_date, order_id) AS prev_cost,
       lead(order_date, 2) OVER (ORDER BY order_date, order_id) AS date_two_later
FROM orders WHERE customer_id = 100
ORDER BY order_date, order_id
;;
SELECT month, revenue,
       sum(revenue) OVER (ORDER BY month ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_revenue,
       avg(revenue) OVER (ORDER BY month ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving_avg_3
FROM (
    SELECT date_trunc('month', o.order_date) AS month, sum(oi.quantity * oi.unit_price) AS revenue
    FROM orders o JOIN order_items oi USING (order_id) GROUP BY 1
) m
ORDER BY month
;;
SELECT claim_id, filed_on, claim_amount,
       sum(claim_amount) OVER (PARTITION BY policy_type ORDER BY filed_on, claim_id) AS running_total
FROM insurance_claims WHERE region_id = 3 AND filed_on < DATE '2023-07-01'
ORDER BY claim_id
;;
SELECT customer_id, credit_limit, ntile(4) OVER (ORDER BY credit_limit, customer_id) AS quartile
FROM customers WHERE credit_limit IS NOT NULL AND region_id = 2
ORDER BY customer_id
;;
SELECT employee_id, salary, percent_rank() OVER (ORDER BY salary) AS pct_rank, cume_dist() OVER (ORDER BY salary) AS cume
FROM employees ORDER BY employee_id
;;
SELECT employee_id, department, salary,
       salary - avg(salary) OVER (PARTITION BY department) AS diff_from_dept_avg,
       max(salary) OVER (PARTITION BY department) AS dept_max
FROM employees ORDER BY department, employee_id
;;
SELECT event_id, customer_id, occurred_at,
       occurred_at - lag(occurred_at) OVER w AS since_previous,
       first_value(event_type) OVER w AS first_event
FROM events
WHERE customer_id = 77
WINDOW w AS (PARTITION BY customer_id ORDER BY occurred_at, event_id)
ORDER BY occurred_at, event_id
;;
SELECT region_id, policy_type, count(*) AS n,
       sum(count(*)) OVER (PARTITION BY region_id) AS region_total,
       round(100.0 * count(*) / sum(count(*)) OVER (PARTITION BY region_id), 1) AS pct
FROM insurance_claims GROUP BY region_id, policy_type
ORDER BY region_id, policy_type
;;
SELECT product_id, units, rank() OVER (ORDER BY units DESC) AS rnk
FROM (SELECT product_id, sum(quantity) AS units FROM order_items GROUP BY product_id)
ORDER BY rnk, product_id LIMIT 15
;;
SELECT order_date, daily,
       sum(daily) OVER (ORDER BY order_date RANGE BETWEEN INTERVAL 6 DAYS PRECEDING AND CURRENT ROW) AS last_7_days
FROM (SELECT order_date, count(*) AS daily FROM orders WHERE order_date < DATE '2022-03-01' GROUP BY order_date)
ORDER BY order_date
;;
SELECT customer_id, order_id, shipping_cost,
       last_value(shipping_cost) OVER (PARTITION BY customer_id ORDER BY order_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_cost,
       nth_value(order_id, 2) OVER (PARTITION BY customer_id ORDER BY order_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second_order
FROM orders WHERE customer_id BETWEEN 10 AND 14
ORDER BY customer_id, order_id
;;
SELECT year(filed_on) AS yr, month(filed_on) AS mo, count(*) AS claims,
       count(*) - lag(count(*)) OVER (ORDER BY year(filed_on), month(filed_on)) AS change
FROM insurance_claims GROUP BY 1, 2 ORDER BY 1, 2
;;
SELECT employee_id, manager_id, salary,
       row_number() OVER (PARTITION BY manager_id ORDER BY salary DESC, employee_id) AS rn
FROM employees WHERE manager_id IS NOT NULL
ORDER BY manager_id, rn
;;
SELECT customer_id, event_type, count(*) AS n,
       count(*) FILTER (WHERE event_type = 'checkout') OVER (PARTITION BY customer_id) AS checkout_rows
FROM events WHERE customer_id IN (5, 6, 7) GROUP BY customer_id, event_type
ORDER BY customer_id, event_type
;;
SELECT region_id, target_year, q1 + q2 + q3 + q4 AS year_target,
       (q1 + q2 + q3 + q4) / lag(q1 + q2 + q3 + q4) OVER (PARTITION BY region_id ORDER BY target_year) - 1 AS growth
FROM quarterly_targets ORDER BY region_id, target_year
;;
SELECT product_id, unit_price,
       avg(unit_price) OVER (ORDER BY product_id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS smooth_price,
       min(unit_price) OVER (ORDER BY product_id ROWS BETWEEN CURRENT ROW AND 5 FOLLOWING) AS next_min
FROM products ORDER BY product_id
;;
SELECT category, product_name, unit_price,
       unit_price / sum(unit_price) OVER (PARTITION BY category) AS share_of_category
FROM products WHERE category = 'kitchen' ORDER BY product_id
;;
SELECT segment, customer_id, signup_date,
       count(*) OVER (PARTITION BY segment ORDER BY signup_date, customer_id) AS signups_so_far
FROM customers WHERE customer_id % 20 = 0
ORDER BY segment, signup_date, customer_id
;;
SELECT e.employee_id, e.department,
       rank() OVER dept_by_hire AS hire_rank,
       lag(e.hired_on) OVER dept_by_hire AS previous_hire
FROM employees e
WINDOW dept_by_hire AS (PARTITION BY e.department ORDER BY e.hired_on, e.employee_id)
ORDER BY e.department, hire_rank
;;
SELECT DISTINCT category, max(unit_price) OVER (PARTITION BY category) AS top_price FROM products ORDER BY category
;;

-- ===== QUALIFY =====

SELECT customer_id, order_id, order_date
FROM orders
QUALIFY row_number() OVER (PARTITION BY customer_id ORDER BY order_date DESC, order_id DESC) = 1
ORDER BY customer_id
LIMIT 50
;;
SELECT category, product_name, unit_price
FROM products
QUALIFY rank() OVER (PARTITION BY category ORDER BY unit_price DESC) <= 3
ORDER BY category, unit_price DESC, product_name
;;
SELECT region_id, claim_id, claim_amount, rank() OVER (PARTITION BY region_id ORDER BY claim_amount DESC) AS rk
FROM insurance_claims
QUALIFY rk <= 2
ORDER BY region_id, rk, claim_id
;;
SELECT employee_id, department, salary FROM employees
WHERE is_remote IS NOT NULL
QUALIFY salary = max(salary) OVER (PARTITION BY department)
ORDER BY department, employee_id
;;
SELECT o.customer_id, o.order_id, sum(oi.quantity) AS units
FROM orders o JOIN order_items oi USING (order_id)
GROUP BY o.customer_id, o.order_id
QUALIFY units = max(units) OVER (PARTITION BY o.customer_id) AND o.customer_id < 15
ORDER BY o.customer_id, o.order_id
;;
SELECT event_id, customer_id, occurred_at FROM events
QUALIFY lag(event_type) OVER (PARTITION BY customer_id ORDER BY occurred_at, event_id) = 'search' AND event_type = 'checkout'
ORDER BY event_id
LIMIT 40
;;
SELECT * FROM (
    SELECT region_id, policy_type, sum(claim_amount) AS amount FROM insurance_claims GROUP BY ALL
) QUALIFY dense_rank() OVER (PARTITION BY region_id ORDER BY amount DESC) = 1
ORDER BY region_id
;;
WITH ranked AS (SELECT product_id, category, weight_kg FROM products WHERE weight_kg IS NOT NULL)
SELECT * FROM ranked QUALIFY ntile(2) OVER (PARTITION BY category ORDER BY weight_kg, product_id) = 2 ORDER BY product_id
;;

-- ===== Subqueries: scalar, IN, NOT IN, EXISTS, NOT EXISTS, ANY, ALL =====

SELECT product_id, product_name, unit_price FROM products
WHERE unit_price > (SELECT avg(unit_price) FROM products) * 1.8
ORDER BY product_id
;;
SELECT region_name, (SELECT count(*) FROM customers c WHERE c.region_id = r.region_id) AS customers,
       (SELECT max(claim_amount) FROM insurance_claims i WHERE i.region_id = r.region_id) AS largest_claim
FROM regions r ORDER BY region_name
;;
SELECT customer_id, full_name FROM customers
WHERE customer_id IN (SELECT customer_id FROM insurance_claims WHERE claim_amount > 24500)
ORDER BY customer_id
;;
SELECT count(*) AS customers_without_claims FROM customers
WHERE customer_id NOT IN (SELECT customer_id FROM insurance_claims WHERE customer_id IS NOT NULL)
;;
SELECT c.customer_id FROM customers c
WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.status = 'returned' AND o.channel = 'phone')
  AND c.region_id = 1
ORDER BY c.customer_id
;;
SELECT p.product_id, p.product_name FROM products p
WHERE NOT EXISTS (SELECT * FROM order_items oi JOIN orders o USING (order_id)
                  WHERE oi.product_id = p.product_id AND o.order_date >= DATE '2024-11-15')
ORDER BY p.product_id
;;
SELECT product_id, unit_price FROM products
WHERE unit_price > ALL (SELECT unit_price FROM products WHERE category = 'apparel')
ORDER BY product_id
;;
SELECT product_id, category, unit_price FROM products
WHERE unit_price = ANY (SELECT max(unit_price) FROM products GROUP BY category)
ORDER BY product_id
;;
SELECT employee_id, salary FROM employees
WHERE salary < SOME (SELECT salary FROM employees WHERE title = 'Associate') AND title = 'Senior Associate'
ORDER BY employee_id
;;
SELECT o.order_id, o.shipping_cost FROM orders o
WHERE o.shipping_cost > (SELECT avg(o2.shipping_cost) FROM orders o2 WHERE o2.channel = o.channel) * 1.9
ORDER BY o.order_id
;;
SELECT e.employee_id, e.department, e.salary FROM employees e
WHERE e.salary = (SELECT max(salary) FROM employees x WHERE x.department = e.department)
ORDER BY e.employee_id
;;
SELECT c.customer_id,
       (SELECT max(order_date) FROM orders o WHERE o.customer_id = c.customer_id) AS last_order,
       (SELECT count(*) FROM events e WHERE e.customer_id = c.customer_id AND e.event_type = 'login') AS logins
FROM customers c WHERE c.customer_id BETWEEN 550 AND 580
ORDER BY c.customer_id
;;
SELECT region_id, count(*) AS claims FROM insurance_claims
WHERE customer_id IN (SELECT customer_id FROM customers WHERE segment = 'enterprise' AND is_active)
  AND policy_type NOT IN ('travel', 'health')
GROUP BY region_id ORDER BY region_id
;;
SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM order_items) AS items,
       (SELECT count(*) FROM order_items) / (SELECT count(*) FROM orders) AS items_per_order
;;
SELECT order_id FROM orders o
WHERE (SELECT sum(quantity) FROM order_items oi WHERE oi.order_id = o.order_id) >= 18
ORDER BY order_id
;;
SELECT r.region_name FROM regions r
WHERE EXISTS (SELECT 1 FROM employees e WHERE e.region_id = r.region_id AND e.title = 'Director')
ORDER BY r.region_name
;;
SELECT r.region_name FROM regions r
WHERE NOT EXISTS (SELECT 1 FROM quarterly_targets t WHERE t.region_id = r.region_id AND t.q3 IS NULL)
ORDER BY r.region_name
;;
SELECT customer_id, claim_id, claim_amount FROM insurance_claims i
WHERE claim_amount > 1.95 * (SELECT median(claim_amount) FROM insurance_claims j WHERE j.policy_type = i.policy_type)
ORDER BY claim_id
;;
SELECT category, count(*) FILTER (WHERE product_id IN (SELECT product_id FROM order_items WHERE discount = 0.15)) AS discounted,
       count(*) AS products
FROM products GROUP BY category ORDER BY category
;;
SELECT full_name FROM customers WHERE (region_id, segment) IN (SELECT region_id, 'enterprise' FROM regions WHERE country_code = 'DE')
  AND customer_id < 200 ORDER BY full_name, customer_id
;;
SELECT customer_id, EXISTS (SELECT 1 FROM insurance_claims i WHERE i.customer_id = c.customer_id) AS has_claim
FROM customers c WHERE customer_id <= 25 ORDER BY customer_id
;;
SELECT order_id, customer_id IN (SELECT referred_by FROM customers WHERE referred_by IS NOT NULL) AS is_referrer
FROM orders WHERE order_id <= 30 ORDER BY order_id
;;

-- ===== Derived tables and LATERAL =====

SELECT segment, avg(orders) AS avg_orders
FROM (SELECT c.segment, c.customer_id, count(o.order_id) AS orders
      FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.segment, c.customer_id) per_customer
GROUP BY segment ORDER BY segment
;;
SELECT t.bucket, count(*) AS orders
FROM (SELECT order_id, CASE WHEN shipping_cost < 5 THEN 'cheap' WHEN shipping_cost < 15 THEN 'normal' ELSE 'expensive' END AS bucket
      FROM orders WHERE shipping_cost IS NOT NULL) AS t
GROUP BY t.bucket ORDER BY t.bucket
;;
SELECT * FROM (SELECT region_id, count(*) AS n FROM customers GROUP BY region_id) x(region, customers) ORDER BY region
;;
SELECT a.month, a.orders, b.claims
FROM (SELECT strftime(order_date, '%Y-%m') AS month, count(*) AS orders FROM orders GROUP BY 1) a
JOIN (SELECT strftime(filed_on, '%Y-%m') AS month, count(*) AS claims FROM insurance_claims GROUP BY 1) b USING (month)
ORDER BY a.month
;;
SELECT c.customer_id, recent.order_id, recent.order_date
FROM customers c,
     LATERAL (SELECT o.order_id, o.order_date FROM orders o WHERE o.customer_id = c.customer_id ORDER BY o.order_date DESC, o.order_id DESC LIMIT 2) recent
WHERE c.customer_id <= 10
ORDER BY c.customer_id, recent.order_date DESC, recent.order_id DESC
;;
SELECT r.region_name, top.claim_id, top.claim_amount
FROM regions r
JOIN LATERAL (SELECT claim_id, claim_amount FROM insurance_claims i WHERE i.region_id = r.region_id ORDER BY claim_amount DESC, claim_id LIMIT 3) top ON true
ORDER BY r.region_name, top.claim_amount DESC, top.claim_id
;;
SELECT p.product_id, s.units, s.orders
FROM products p,
     LATERAL (SELECT sum(quantity) AS units, count(DISTINCT order_id) AS orders FROM order_items oi WHERE oi.product_id = p.product_id) s
WHERE p.category = 'outdoor'
ORDER BY p.product_id
;;
SELECT e.employee_id, x.reports
FROM employees e LEFT JOIN LATERAL (SELECT count(*) AS reports FROM employees m WHERE m.manager_id = e.employee_id) x ON true
WHERE e.employee_id <= 15
ORDER BY e.employee_id
;;
SELECT c.customer_id, l.net
FROM customers c, LATERAL (SELECT c.credit_limit * 0.9 AS net) l
WHERE c.customer_id < 12
ORDER BY c.customer_id
;;
SELECT region, yr, claims FROM (
    SELECT region_id AS region, year(filed_on) AS yr, count(*) AS claims FROM insurance_claims GROUP BY ALL
) sub WHERE claims > 120 ORDER BY region, yr
;;
SELECT d.dept, d.headcount, d.payroll / d.headcount AS avg_pay
FROM (SELECT department AS dept, count(*) AS headcount, sum(salary) AS payroll FROM employees GROUP BY department) d
ORDER BY d.dept
;;
SELECT v.kind, v.weight, count(p.product_id) AS products
FROM (VALUES ('light', 0, 5), ('medium', 5, 10), ('heavy', 10, 100)) v(kind, lo, weight)
LEFT JOIN products p ON p.weight_kg >= v.lo AND p.weight_kg < v.weight
GROUP BY v.kind, v.weight ORDER BY v.weight
;;

-- ===== Set operations =====

SELECT region_id FROM customers WHERE segment = 'enterprise'
UNION
SELECT region_id FROM insurance_claims WHERE policy_type = 'auto'
ORDER BY region_id
;;
SELECT 'order' AS kind, order_date AS day FROM orders WHERE order_id <= 5
UNION ALL
SELECT 'claim', filed_on FROM insurance_claims WHERE claim_id <= 5
ORDER BY kind, day
;;
SELECT customer_id FROM orders WHERE channel = 'web'
INTERSECT
SELECT customer_id FROM insurance_claims WHERE policy_type = 'home'
ORDER BY customer_id
LIMIT 40
;;
SELECT customer_id FROM customers WHERE region_id = 3
EXCEPT
SELECT customer_id FROM orders
ORDER BY customer_id
;;
SELECT region_id, segment FROM customers
EXCEPT ALL
SELECT region_id, segment FROM customers WHERE customer_id > 20
;;
SELECT customer_id, 'ordered' AS activity FROM orders WHERE order_date = DATE '2023-03-03'
UNION ALL
SELECT customer_id, 'claimed' FROM insurance_claims WHERE filed_on = DATE '2023-03-03'
;;
SELECT region_id, count(*) AS n FROM customers GROUP BY region_id
UNION ALL
SELECT NULL, count(*) FROM customers
ORDER BY region_id NULLS LAST
;;
SELECT region_id, 'customers' AS source, count(*) AS n FROM customers GROUP BY region_id
UNION BY NAME
SELECT region_id, count(*) AS n, 'claims' AS source FROM insurance_claims GROUP BY region_id
ORDER BY region_id, source
;;
SELECT order_id, status FROM orders WHERE order_id < 5
UNION ALL BY NAME
SELECT order_id, channel FROM orders WHERE order_id < 3
ORDER BY order_id, status NULLS LAST
;;
(SELECT product_id FROM products WHERE category = 'home' ORDER BY unit_price DESC, product_id LIMIT 3)
UNION ALL
(SELECT product_id FROM products WHERE category = 'kitchen' ORDER BY unit_price DESC, product_id LIMIT 3)
ORDER BY product_id
;;
SELECT employee_id FROM employees WHERE department = 'Sales'
INTERSECT ALL
SELECT employee_id FROM orders
ORDER BY employee_id
;;
SELECT count(*) AS n FROM (
    SELECT customer_id FROM orders WHERE is_priority
    UNION
    SELECT customer_id FROM insurance_claims WHERE claim_status = 'open'
)
;;

-- ===== GROUP BY ALL, ORDER BY ALL, GROUPING SETS, ROLLUP, CUBE =====

SELECT channel, status, count(*) AS n FROM orders GROUP BY ALL ORDER BY ALL
;;
SELECT year(order_date) AS yr, quarter(order_date) AS q, count(*) AS orders, sum(shipping_cost) AS shipping
FROM orders GROUP BY ALL ORDER BY ALL
;;
SELECT segment, is_active, count(*) FROM customers GROUP BY ALL ORDER BY ALL DESC
;;
SELECT policy_type, claim_status, count(*) AS n
FROM insurance_claims
GROUP BY GROUPING SETS ((policy_type, claim_status), (policy_type), ())
ORDER BY policy_type NULLS LAST, claim_status NULLS LAST
;;
SELECT region_id, policy_type, sum(claim_amount) AS total, grouping(region_id, policy_type) AS level
FROM insurance_claims
GROUP BY ROLLUP (region_id, policy_type)
ORDER BY level, region_id NULLS LAST, policy_type NULLS LAST
;;
SELECT channel, is_priority, count(*) AS n, grouping(channel) AS g_channel, grouping(is_priority) AS g_priority
FROM orders
GROUP BY CUBE (channel, is_priority)
ORDER BY g_channel, g_priority, channel NULLS LAST, is_priority NULLS LAST
;;
SELECT CASE WHEN grouping(department) = 1 THEN 'all departments' ELSE department END AS department,
       count(*) AS headcount, sum(salary) AS payroll
FROM employees GROUP BY ROLLUP (department) ORDER BY grouping(department), department
;;
SELECT year(filed_on) AS yr, month(filed_on) AS mo, count(*) AS claims
FROM insurance_claims
GROUP BY ROLLUP (year(filed_on), month(filed_on))
ORDER BY yr NULLS LAST, mo NULLS LAST
;;
SELECT segment, loyalty_tier, region_id, count(*) AS n
FROM customers
GROUP BY GROUPING SETS ((segment), (loyalty_tier), (region_id))
ORDER BY segment NULLS LAST, loyalty_tier NULLS LAST, region_id NULLS LAST
;;
SELECT category, discontinued, count(*) AS n, grouping_id(category, discontinued) AS gid
FROM products GROUP BY CUBE (category, discontinued) ORDER BY gid, category NULLS LAST, discontinued NULLS LAST
;;
SELECT department, title, count(*) AS n FROM employees GROUP BY 1, 2 ORDER BY ALL
;;
SELECT region_id, avg(credit_limit) AS avg_limit FROM customers GROUP BY ALL HAVING avg(credit_limit) > 2000 ORDER BY ALL
;;

-- ===== PIVOT and UNPIVOT =====

-- the SQL-standard form
SELECT * FROM (SELECT status, channel FROM orders)
PIVOT (count(*) FOR channel IN ('web', 'store', 'phone', 'partner'))
ORDER BY status
;;
FROM (SELECT region_id, policy_type, claim_amount FROM insurance_claims)
PIVOT (sum(claim_amount) FOR policy_type IN ('auto', 'home', 'travel', 'health'))
ORDER BY region_id
;;
SELECT * FROM (SELECT year(order_date) AS yr, quarter(order_date) AS q, shipping_cost FROM orders)
PIVOT (sum(shipping_cost) AS shipping, count(*) AS orders FOR q IN (1, 2, 3, 4))
ORDER BY yr
;;
SELECT * FROM (SELECT department, is_remote, salary FROM employees WHERE is_remote IS NOT NULL)
PIVOT (avg(salary) FOR is_remote IN (true, false))
ORDER BY department
;;
-- DuckDB's simplified form, as a statement and as a subquery
PIVOT (SELECT segment, loyalty_tier FROM customers) ON loyalty_tier IN ('bronze', 'silver', 'gold', 'platinum') USING count(*) ORDER BY segment
;;
PIVOT insurance_claims ON claim_status IN ('open', 'denied', 'approved', 'paid') USING count(*) GROUP BY policy_type ORDER BY policy_type
;;
SELECT p.*, r.region_name
FROM (PIVOT insurance_claims ON policy_type IN ('auto', 'home') USING sum(claim_amount) GROUP BY region_id) p
JOIN regions r USING (region_id)
ORDER BY region_id
;;
PIVOT orders ON channel IN ('web', 'store', 'phone', 'partner') USING sum(shipping_cost) AS cost, count(*) AS n GROUP BY is_priority ORDER BY is_priority
;;
UNPIVOT quarterly_targets ON q1, q2, q3, q4 INTO NAME quarter VALUE target
ORDER BY region_id, target_year, quarter
;;
SELECT quarter, sum(target) AS total_target
FROM (UNPIVOT quarterly_targets ON q1, q2, q3, q4 INTO NAME quarter VALUE target)
GROUP BY quarter ORDER BY quarter
;;
FROM quarterly_targets UNPIVOT INCLUDE NULLS (target FOR quarter IN (q1, q2, q3, q4))
WHERE region_id = 6
ORDER BY target_year, quarter
;;
SELECT region_id, quarter, target FROM quarterly_targets
UNPIVOT (target FOR quarter IN (q1 AS 'Q1', q2 AS 'Q2', q3 AS 'Q3', q4 AS 'Q4'))
WHERE target_year = 2024
ORDER BY region_id, quarter
;;

-- ===== Dates and times =====

SELECT date_trunc('month', order_date) AS month, count(*) AS orders FROM orders
WHERE order_date >= DATE '2024-01-01' GROUP BY 1 ORDER BY 1
;;
SELECT date_part('year', filed_on) AS yr, date_part('quarter', filed_on) AS q, sum(claim_amount) AS amount
FROM insurance_claims GROUP BY 1, 2 ORDER BY 1, 2
;;
SELECT extract(dow FROM order_date) AS weekday, dayname(order_date) AS day_name, count(*) AS orders
FROM orders GROUP BY ALL ORDER BY weekday
;;
SELECT policy_type, avg(date_diff('day', filed_on, settled_on)) AS avg_days_to_settle,
       max(settled_on - filed_on) AS slowest_days
FROM insurance_claims WHERE settled_on IS NOT NULL GROUP BY policy_type ORDER BY policy_type
;;
SELECT strftime(order_date, '%Y-%m') AS ym, count(*) AS orders FROM orders
WHERE order_date BETWEEN DATE '2023-01-01' AND DATE '2023-12-31' GROUP BY ym ORDER BY ym
;;
SELECT order_id, order_date, order_date + INTERVAL 30 DAY AS due_date, last_day(order_date) AS month_end
FROM orders WHERE order_id <= 12 ORDER BY order_id
;;
SELECT count(*) AS late_orders FROM orders WHERE ship_date > order_date + INTERVAL 4 DAY
;;
SELECT m.month, count(o.order_id) AS orders
FROM generate_series(DATE '2024-01-01', DATE '2024-12-01', INTERVAL 1 MONTH) AS m(month)
LEFT JOIN orders o ON date_trunc('month', o.order_date) = m.month
GROUP BY m.month ORDER BY m.month
;;
SELECT d.day::DATE AS day, count(e.event_id) AS events
FROM range(TIMESTAMP '2024-03-01', TIMESTAMP '2024-03-15', INTERVAL 1 DAY) d(day)
LEFT JOIN events e ON date_trunc('day', e.occurred_at) = d.day
GROUP BY d.day ORDER BY d.day
;;
SELECT hour(occurred_at) AS hr, count(*) AS events FROM events GROUP BY hr ORDER BY hr
;;
SELECT date_trunc('week', occurred_at) AS week, event_type, count(*) AS n
FROM events WHERE occurred_at < TIMESTAMP '2024-02-01' GROUP BY ALL ORDER BY ALL
;;
SELECT customer_id, signup_date, date_diff('month', signup_date, DATE '2024-12-31') AS months_since_signup,
       age(DATE '2024-12-31', signup_date) AS tenure
FROM customers WHERE customer_id <= 10 ORDER BY customer_id
;;
SELECT year(hired_on) AS hire_year, count(*) AS hires FROM employees GROUP BY hire_year ORDER BY hire_year
;;
SELECT employee_id, hired_on, date_add(hired_on, INTERVAL 5 YEAR) AS fifth_anniversary,
       make_date(year(hired_on) + 10, month(hired_on), 1) AS tenth_month
FROM employees WHERE employee_id <= 8 ORDER BY employee_id
;;
SELECT event_id, occurred_at, strftime(occurred_at, '%d/%m/%Y %H:%M') AS shown, epoch(occurred_at) AS epoch_s
FROM events WHERE event_id <= 5 ORDER BY event_id
;;
SELECT time_bucket(INTERVAL 6 HOUR, occurred_at) AS bucket, count(*) AS n
FROM events WHERE occurred_at < TIMESTAMP '2024-01-05' GROUP BY bucket ORDER BY bucket
;;
SELECT count(*) FILTER (WHERE order_date >= DATE '2024-12-31' - INTERVAL 90 DAY) AS last_90_days,
       count(*) FILTER (WHERE order_date >= DATE '2024-12-31' - INTERVAL 1 YEAR) AS last_year
FROM orders
;;
SELECT strptime('2024-05-17 08:30', '%Y-%m-%d %H:%M') AS ts, CAST('2024-02-29' AS DATE) + 1 AS next_day,
       DATE '2024-03-31' - INTERVAL 1 MONTH AS month_before
;;
SELECT yearweek(order_date) AS yw, isodow(order_date) AS dow, count(*) AS n
FROM orders WHERE order_date BETWEEN DATE '2024-01-01' AND DATE '2024-01-21' GROUP BY ALL ORDER BY ALL
;;
SELECT claim_id, filed_on, settled_on, coalesce(settled_on, DATE '2025-01-01') - filed_on AS open_days
FROM insurance_claims WHERE claim_id <= 10 ORDER BY claim_id
;;
SELECT date_trunc('year', launched_on) AS launch_year, count(*) AS products, min(launched_on) AS first_launch
FROM products GROUP BY ALL ORDER BY ALL
;;
SELECT monthname(order_date) AS month_name, month(order_date) AS mo, count(*) AS orders
FROM orders WHERE year(order_date) = 2023 GROUP BY ALL ORDER BY mo
;;

-- ===== CASE, COALESCE, NULLIF, FILTER =====

SELECT CASE WHEN claim_amount < 1000 THEN 'small' WHEN claim_amount < 10000 THEN 'medium' ELSE 'large' END AS size_band,
       count(*) AS claims, sum(claim_amount) AS amount
FROM insurance_claims GROUP BY size_band ORDER BY min(claim_amount)
;;
SELECT customer_id, coalesce(loyalty_tier, 'none') AS tier, coalesce(credit_limit, 0) AS credit
FROM customers WHERE customer_id % 7 = 0 AND customer_id < 100 ORDER BY customer_id
;;
SELECT policy_type, sum(approved_amount) / nullif(sum(claim_amount), 0) AS approval_rate FROM insurance_claims GROUP BY policy_type ORDER BY policy_type
;;
SELECT region_id,
       count(*) FILTER (WHERE claim_status = 'open') AS open_claims,
       count(*) FILTER (WHERE claim_status = 'paid') AS paid_claims,
       sum(claim_amount) FILTER (WHERE policy_type = 'auto') AS auto_amount,
       avg(claim_amount) FILTER (WHERE filed_on >= DATE '2024-01-01') AS avg_2024
FROM insurance_claims GROUP BY region_id ORDER BY region_id
;;
SELECT channel,
       sum(CASE WHEN status = 'delivered' THEN 1 ELSE 0 END) AS delivered,
       sum(CASE status WHEN 'returned' THEN 1 ELSE 0 END) AS returned,
       round(100.0 * sum(CASE WHEN status = 'returned' THEN 1 ELSE 0 END) / count(*), 2) AS return_rate
FROM orders GROUP BY channel ORDER BY channel
;;
SELECT employee_id, CASE WHEN is_remote THEN 'remote' WHEN NOT is_remote THEN 'office' ELSE 'unknown' END AS place
FROM employees ORDER BY employee_id
;;
SELECT product_id, nullif(weight_kg, 0) AS weight, coalesce(weight_kg, avg(weight_kg) OVER (PARTITION BY category)) AS weight_filled
FROM products WHERE product_id <= 20 ORDER BY product_id
;;
SELECT if(is_priority, 'priority', 'standard') AS service, count(*) AS orders, avg(shipping_cost) AS avg_cost
FROM orders GROUP BY 1 ORDER BY 1
;;
SELECT segment, count(*) FILTER (WHERE referred_by IS NOT NULL) AS referred, count(*) AS total,
       greatest(count(*) FILTER (WHERE is_active), 1) AS active_floor, least(min(credit_limit), 1000) AS low
FROM customers GROUP BY segment ORDER BY segment
;;
SELECT coalesce(c.loyalty_tier, 'unknown') AS tier, coalesce(sum(oi.quantity), 0) AS units
FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id LEFT JOIN order_items oi ON oi.order_id = o.order_id
GROUP BY 1 ORDER BY 1
;;
SELECT order_id, CASE WHEN ship_date IS NULL THEN NULL ELSE ship_date - order_date END AS days_to_ship
FROM orders WHERE order_id BETWEEN 1 AND 25 ORDER BY order_id
;;
SELECT sum(quantity) FILTER (WHERE discount IS NULL) AS undiscounted_units, sum(quantity) FILTER (discount > 0) AS discounted_units
FROM order_items
;;

-- ===== Text =====

SELECT upper(region_name) AS up, lower(country_code) AS low, length(director) AS len, left(region_name, 3) AS abbr, right(country_code, 1) AS last_char
FROM regions ORDER BY region_id
;;
SELECT split_part(email, '@', 2) AS domain, count(*) AS customers FROM customers GROUP BY domain ORDER BY domain
;;
SELECT split_part(full_name, ' ', 1) AS first_name, count(*) AS n FROM customers GROUP BY 1 ORDER BY n DESC, first_name LIMIT 5
;;
SELECT concat(first_name, ' ', last_name) AS name, first_name || ' ' || upper(left(last_name, 1)) || '.' AS short_name
FROM employees WHERE employee_id <= 10 ORDER BY employee_id
;;
SELECT regexp_extract(page, '^/([a-z]+)/', 1) AS section, count(*) AS views FROM events WHERE page IS NOT NULL GROUP BY 1 ORDER BY 1
;;
SELECT product_id, replace(product_name, ' ', '-') AS slug, lower(replace(category, 'e', 'E')) AS cat
FROM products WHERE product_id <= 10 ORDER BY product_id
;;
SELECT lpad(CAST(order_id AS VARCHAR), 6, '0') AS order_no, rpad(status, 10, '.') AS padded_status
FROM orders WHERE order_id <= 10 ORDER BY order_id
;;
SELECT product_name FROM products WHERE contains(product_name, 'Lamp') OR starts_with(product_name, 'Pro') ORDER BY product_id
;;
SELECT trim('  ' || region_name || '  ') AS trimmed, reverse(region_name) AS backwards, strpos(region_name, 'th') AS th_at
FROM regions ORDER BY region_id
;;
SELECT substring(email, 1, strpos(email, '@') - 1) AS local_part FROM customers WHERE customer_id <= 8 ORDER BY customer_id
;;
SELECT regexp_replace(page, '/[0-9]+$', '') AS path, count(*) AS hits FROM events WHERE page IS NOT NULL GROUP BY 1 ORDER BY 1
;;
SELECT full_name FROM customers WHERE regexp_matches(full_name, '^(Ana|Ben) (Smith|Silva)$') ORDER BY customer_id
;;
SELECT format('{} ({})', region_name, country_code) AS label, printf('%05d', region_id) AS code FROM regions ORDER BY region_id
;;
SELECT category, string_agg(DISTINCT split_part(product_name, ' ', 2), ', ' ORDER BY split_part(product_name, ' ', 2)) AS kinds
FROM products GROUP BY category ORDER BY category
;;
SELECT concat_ws(' / ', region_name, country_code, director) AS line FROM regions ORDER BY region_id
;;
SELECT product_id, repeat('*', 10) AS bar, lpad(CAST(product_id AS VARCHAR), 5, '0') AS code FROM products WHERE product_id <= 15 ORDER BY product_id
;;
SELECT levenshtein(lower(first_name), 'maya') AS distance, jaro_winkler_similarity(first_name, 'Ada') AS similarity
FROM employees WHERE employee_id <= 6 ORDER BY employee_id
;;
SELECT region_id, repeat('-', 10) AS rule, lpad(region_name, 12, ' ') AS right_aligned FROM regions ORDER BY region_id
;;
SELECT ascii(left(region_name, 1)) AS code, chr(65 + region_id) AS letter, translate(region_name, 'aeiou', 'AEIOU') AS loud
FROM regions ORDER BY region_id
;;

-- ===== Lists, lambdas, list comprehensions, unnest =====

SELECT product_id, tags, len(tags) AS tag_count FROM products WHERE product_id <= 10 ORDER BY product_id
;;
SELECT tag, count(*) AS products FROM (SELECT unnest(tags) AS tag FROM products) GROUP BY tag ORDER BY tag
;;
SELECT t.tag, avg(p.unit_price) AS avg_price
FROM products p, unnest(p.tags) AS t(tag)
GROUP BY t.tag ORDER BY t.tag
;;
SELECT product_id, list_transform(tags, lambda t: upper(t)) AS loud_tags FROM products WHERE product_id <= 6 ORDER BY product_id
;;
SELECT product_id, list_filter(tags, lambda t: t <> 'sale') AS without_sale FROM products WHERE product_id <= 8 ORDER BY product_id
;;
SELECT product_id, [upper(t) FOR t IN tags IF t <> 'new'] AS other_tags FROM products WHERE product_id BETWEEN 10 AND 16 ORDER BY product_id
;;
SELECT count(*) AS eco_products FROM products WHERE list_contains(tags, 'eco')
;;
SELECT category, list_sort(list_distinct(flatten(list(tags)))) AS all_tags FROM products GROUP BY category ORDER BY category
;;
SELECT claim_id, adjuster_scores, list_avg(adjuster_scores) AS avg_score, list_max(adjuster_scores) AS best,
       list_sum(adjuster_scores) AS total_score
FROM insurance_claims WHERE claim_id <= 12 ORDER BY claim_id
;;
SELECT claim_id, adjuster_scores[1] AS first_score, adjuster_scores[-1] AS last_score, adjuster_scores[1:2] AS first_two
FROM insurance_claims WHERE claim_id <= 8 ORDER BY claim_id
;;
SELECT claim_id, list_reduce(adjuster_scores, lambda a, b: a + b) AS reduced,
       list_transform(adjuster_scores, lambda s, i: s * i) AS weighted
FROM insurance_claims WHERE claim_id BETWEEN 20 AND 27 ORDER BY claim_id
;;
SELECT policy_type, avg(s) AS avg_score
FROM insurance_claims, unnest(adjuster_scores) AS u(s)
GROUP BY policy_type ORDER BY policy_type
;;
SELECT claim_id, unnest(adjuster_scores) AS score FROM insurance_claims WHERE claim_id IN (2, 3)
;;
SELECT customer_id, list(order_id ORDER BY order_id) AS order_ids, list(DISTINCT channel ORDER BY channel) AS channels
FROM orders WHERE customer_id <= 8 GROUP BY customer_id ORDER BY customer_id
;;
SELECT region_id, array_agg(region_name ORDER BY region_name) AS names FROM regions GROUP BY region_id ORDER BY region_id
;;
SELECT [1, 2, 3] AS small_list, list_value('a', 'b') AS letters, len([10, 20, 30]) AS n, list_concat([1, 2], [3]) AS joined
;;
SELECT product_id, list_has_any(tags, ['gift', 'premium']) AS giftable, list_position(tags, 'eco') AS eco_at
FROM products WHERE product_id <= 12 ORDER BY product_id
;;
SELECT array_to_string(tags, '|') AS tag_line, count(*) AS n FROM products GROUP BY 1 ORDER BY 1
;;
SELECT list_aggregate(adjuster_scores, 'min') AS min_score, count(*) AS claims
FROM insurance_claims GROUP BY 1 ORDER BY 1 NULLS LAST
;;
SELECT product_id, string_split(product_name, ' ') AS words, string_split(product_name, ' ')[2] AS noun
FROM products WHERE product_id <= 5 ORDER BY product_id
;;
SELECT x, x * x AS squared FROM unnest([1, 2, 3, 4, 5]) AS t(x) ORDER BY x
;;
SELECT region_id, list_slice(list(claim_id ORDER BY claim_amount DESC, claim_id), 1, 3) AS top_claims
FROM insurance_claims GROUP BY region_id ORDER BY region_id
;;

-- ===== Structs and maps =====

SELECT device.os AS os, count(*) AS events FROM events GROUP BY device.os ORDER BY os
;;
SELECT device['os'] AS os, device.mobile AS mobile, avg(duration_ms) AS avg_ms FROM events GROUP BY ALL ORDER BY ALL
;;
SELECT struct_extract(device, 'app_version') AS version, count(*) AS n FROM events GROUP BY 1 ORDER BY 1
;;
SELECT event_id, device FROM events WHERE event_id <= 5 ORDER BY event_id
;;
SELECT e.device.os AS os, e.device.app_version AS version FROM events e WHERE e.event_id BETWEEN 10 AND 14 ORDER BY e.event_id
;;
SELECT {'region': region_name, 'code': country_code} AS info FROM regions ORDER BY region_id
;;
SELECT s.*, r.region_id FROM regions r, (SELECT {'a': 1, 'b': 'x'} AS st) t, LATERAL (SELECT t.st.a AS a, t.st.b AS b) s ORDER BY r.region_id
;;
SELECT attributes['campaign'] AS campaign, count(*) AS events FROM events GROUP BY 1 ORDER BY 1
;;
SELECT event_id, attributes, map_keys(attributes) AS keys_of_map, element_at(attributes, 'ref') AS ref FROM events WHERE event_id <= 4 ORDER BY event_id
;;
SELECT cardinality(attributes) AS entries, count(*) AS n FROM events GROUP BY 1
;;
SELECT histogram(channel) AS channels FROM orders WHERE order_date < DATE '2022-02-01'
;;
SELECT device.os, histogram(event_type) AS by_type FROM events WHERE device.mobile GROUP BY device.os ORDER BY device.os
;;

-- ===== Percentiles, string_agg, DISTINCT ON, EXCLUDE =====

SELECT policy_type, median(claim_amount) AS median_claim, quantile_cont(claim_amount, 0.9) AS p90,
       quantile_disc(claim_amount, 0.5) AS p50_disc
FROM insurance_claims GROUP BY policy_type ORDER BY policy_type
;;
SELECT quantile_cont(duration_ms, [0.25, 0.5, 0.75]) AS quartiles FROM events
;;
SELECT channel, percentile_cont(0.5) WITHIN GROUP (ORDER BY shipping_cost) AS median_shipping FROM orders GROUP BY channel ORDER BY channel
;;
SELECT department, string_agg(first_name, ', ' ORDER BY first_name, employee_id) AS people FROM employees GROUP BY department ORDER BY department
;;
SELECT region_id, string_agg(DISTINCT segment, '/' ORDER BY segment) AS segments FROM customers GROUP BY region_id ORDER BY region_id
;;
SELECT status, group_concat(order_id, ',' ORDER BY order_id) AS ids FROM orders WHERE order_id <= 40 GROUP BY status ORDER BY status
;;
SELECT DISTINCT ON (customer_id) customer_id, order_id, order_date
FROM orders WHERE customer_id <= 30
ORDER BY customer_id, order_date DESC, order_id DESC
;;
SELECT DISTINCT ON (category) category, product_name, unit_price FROM products ORDER BY category, unit_price, product_id
;;
SELECT DISTINCT ON (region_id, policy_type) region_id, policy_type, claim_id, claim_amount
FROM insurance_claims ORDER BY region_id, policy_type, claim_amount DESC, claim_id
;;
SELECT * EXCLUDE (tags, weight_kg) FROM products WHERE product_id <= 5 ORDER BY product_id
;;
SELECT * EXCLUDE (email) FROM customers WHERE customer_id BETWEEN 100 AND 105 ORDER BY customer_id
;;
SELECT o.* EXCLUDE (shipping_cost), c.full_name FROM orders o JOIN customers c USING (customer_id) WHERE o.order_id <= 5 ORDER BY o.order_id
;;
SELECT * FROM regions ORDER BY region_id
;;
SELECT r.*, t.q1 FROM regions r JOIN quarterly_targets t ON t.region_id = r.region_id WHERE t.target_year = 2022 ORDER BY r.region_id
;;
SELECT approx_count_distinct(customer_id) AS approx_customers, count(DISTINCT customer_id) AS exact_customers FROM events
;;
SELECT employee_id, arg_min(order_id, order_date) AS first_order_id, min(order_date) AS first_order
FROM (SELECT * FROM orders WHERE order_id <= 300 QUALIFY row_number() OVER (PARTITION BY employee_id, order_date ORDER BY order_id) = 1)
GROUP BY employee_id ORDER BY employee_id
;;

-- ===== DESCRIBE, SUMMARIZE, LIMIT and OFFSET =====

DESCRIBE products
;;
DESCRIBE SELECT region_name, count(*) AS n FROM regions GROUP BY region_name
;;
SUMMARIZE regions
;;
SUMMARIZE SELECT claim_amount, policy_type FROM insurance_claims
;;
SELECT order_id, order_date FROM orders ORDER BY order_id LIMIT 10 OFFSET 20
;;
SELECT customer_id, full_name FROM customers ORDER BY full_name, customer_id LIMIT 5 OFFSET 100
;;
SELECT claim_id, claim_amount FROM insurance_claims ORDER BY claim_amount DESC, claim_id LIMIT 10
;;
SELECT event_id FROM events ORDER BY event_id DESC OFFSET 3990
;;
SELECT product_id, product_name FROM products ORDER BY product_id LIMIT 5%
;;

-- ===== Positional references (#n counts the FROM columns; after USING/NATURAL the duplicated key too) =====

SELECT #1 AS region_id, #2 AS region_name FROM regions ORDER BY region_id
;;
SELECT #2 AS region_name, #8 AS q1 FROM regions JOIN quarterly_targets USING (region_id) WHERE #7 = 2024 ORDER BY region_name
;;
SELECT #2 AS full_name, #11 AS order_id, #14 AS order_date FROM customers NATURAL JOIN orders WHERE #1 = 7 ORDER BY order_id
;;

-- ===== Parameters =====

-- params: ["North"]
SELECT r.region_name, count(*) AS claims, sum(c.claim_amount) AS amount
FROM insurance_claims c JOIN regions r USING (region_id)
WHERE r.region_name = ?
GROUP BY r.region_name
;;
-- params: ["enterprise", 5]
SELECT customer_id, full_name, credit_limit FROM customers
WHERE segment = ? AND region_id = ?
ORDER BY credit_limit DESC NULLS LAST, customer_id
LIMIT 10
;;
-- params: ["2024-01-01", "2024-03-31"]
SELECT channel, count(*) AS orders FROM orders
WHERE order_date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)
GROUP BY channel ORDER BY channel
;;
-- params: [3]
SELECT category, product_name, unit_price FROM products
QUALIFY row_number() OVER (PARTITION BY category ORDER BY unit_price DESC, product_id) <= ?
ORDER BY category, unit_price DESC, product_id
;;
-- params: ["auto", 20000]
SELECT claim_id, claim_amount FROM insurance_claims WHERE policy_type = ? AND claim_amount > ? ORDER BY claim_id LIMIT 25
;;
-- params: [10, 5]
SELECT order_id, status FROM orders ORDER BY order_id LIMIT ? OFFSET ?
;;
-- params: ["%Lamp%", true]
SELECT product_id, product_name FROM products WHERE product_name LIKE ? AND discontinued <> ? ORDER BY product_id
;;
-- params: [2]
WITH RECURSIVE reports(employee_id, depth) AS (
    SELECT employee_id, 0 FROM employees WHERE employee_id = ?
    UNION ALL
    SELECT e.employee_id, r.depth + 1 FROM employees e JOIN reports r ON e.manager_id = r.employee_id
)
SELECT depth, count(*) AS people FROM reports GROUP BY depth ORDER BY depth
;;
