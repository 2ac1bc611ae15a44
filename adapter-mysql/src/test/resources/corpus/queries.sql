SELECT count(*) FROM singer
SELECT name, country, age FROM singer ORDER BY age DESC, singer_id
SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'
SELECT name, song_release_year FROM singer ORDER BY age LIMIT 3
SELECT DISTINCT country FROM singer WHERE age > 20
SELECT country, count(*) FROM singer GROUP BY country
SELECT country, count(*) AS n FROM singer GROUP BY country ORDER BY n DESC, country
SELECT song_name, song_release_year FROM singer WHERE age < (SELECT avg(age) FROM singer)
SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)
SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)
SELECT location, name FROM stadium WHERE capacity BETWEEN 5000 AND 10000
SELECT max(capacity), avg(capacity) FROM stadium
SELECT avg(capacity), max(capacity) FROM stadium WHERE capacity > (SELECT avg(capacity) FROM stadium)
SELECT name, capacity FROM stadium ORDER BY average DESC LIMIT 1
SELECT count(*) FROM concert WHERE year = 2014 OR year = 2015
SELECT s.name, count(*) FROM concert c JOIN stadium s ON c.stadium_id = s.stadium_id GROUP BY s.stadium_id, s.name
SELECT s.name, s.capacity FROM concert c JOIN stadium s ON c.stadium_id = s.stadium_id WHERE c.year >= 2014 GROUP BY s.stadium_id, s.name, s.capacity ORDER BY count(*) DESC, s.stadium_id LIMIT 1
SELECT year FROM concert GROUP BY year ORDER BY count(*) DESC, year LIMIT 1
SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)
SELECT country FROM singer WHERE age > 40 INTERSECT SELECT country FROM singer WHERE age < 30
SELECT name FROM stadium EXCEPT SELECT s.name FROM concert c JOIN stadium s ON c.stadium_id = s.stadium_id WHERE c.year = 2014
SELECT theme, count(*) FROM concert GROUP BY theme
SELECT c.concert_name, c.theme, count(*) FROM singer_in_concert sc JOIN concert c ON sc.concert_id = c.concert_id GROUP BY c.concert_id, c.concert_name, c.theme
SELECT s.name, count(*) FROM singer_in_concert sc JOIN singer s ON sc.singer_id = s.singer_id GROUP BY s.singer_id, s.name
SELECT s.name FROM singer_in_concert sc JOIN singer s ON sc.singer_id = s.singer_id JOIN concert c ON sc.concert_id = c.concert_id WHERE c.year = 2014
SELECT name, country FROM singer WHERE song_name LIKE '%1%'
SELECT s.name, s.location FROM concert c JOIN stadium s ON c.stadium_id = s.stadium_id WHERE c.year = 2014 INTERSECT SELECT s.name, s.location FROM concert c JOIN stadium s ON c.stadium_id = s.stadium_id WHERE c.year = 2015
SELECT count(*) FROM concert WHERE stadium_id = (SELECT stadium_id FROM stadium ORDER BY capacity DESC LIMIT 1)
SELECT count(*) FROM stadium WHERE capacity > 8000 OR average < 1500
SELECT name, capacity FROM stadium WHERE capacity > 9000 UNION SELECT name, capacity FROM stadium WHERE average < 1000
SELECT name FROM singer WHERE is_male = 1 UNION ALL SELECT name FROM singer WHERE age > 45
SELECT * FROM singer WHERE singer_id = 3
SELECT * FROM stadium ORDER BY stadium_id
SELECT c.* FROM concert c WHERE c.year = 2013 ORDER BY c.concert_id
SELECT s.*, c.concert_name FROM stadium s JOIN concert c ON c.stadium_id = s.stadium_id ORDER BY c.concert_id
SELECT * FROM concert, stadium WHERE concert.stadium_id = stadium.stadium_id AND concert.year = 2016
SELECT count(*) FROM singer, concert
SELECT count(*) FROM singer JOIN concert
SELECT count(*) FROM singer CROSS JOIN stadium WHERE singer.age > 40
SELECT name FROM singer WHERE age > ALL (SELECT age FROM singer WHERE country = 'Japan')
SELECT name FROM singer WHERE age > ANY (SELECT age FROM singer WHERE country = 'Japan')
SELECT name FROM singer s WHERE EXISTS (SELECT 1 FROM singer_in_concert sc WHERE sc.singer_id = s.singer_id)
SELECT name FROM singer s WHERE NOT EXISTS (SELECT 1 FROM singer_in_concert sc WHERE sc.singer_id = s.singer_id)
SELECT name, (SELECT count(*) FROM singer_in_concert sc WHERE sc.singer_id = s.singer_id) AS concerts FROM singer s ORDER BY s.singer_id
SELECT t.country, t.n FROM (SELECT country, count(*) AS n FROM singer GROUP BY country) t WHERE t.n > 1
SELECT max(t.n) FROM (SELECT country, count(*) AS n FROM singer GROUP BY country) AS t
WITH counts AS (SELECT country, count(*) AS n FROM singer GROUP BY country) SELECT country FROM counts WHERE n = (SELECT max(n) FROM counts)
WITH old AS (SELECT * FROM singer WHERE age > 40) SELECT count(*) FROM old
WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 10) SELECT sum(n) FROM seq
WITH RECURSIVE chain (emp_id, manager_id, depth) AS (SELECT emp_id, manager_id, 0 FROM employees WHERE emp_id = 40 UNION ALL SELECT e.emp_id, e.manager_id, c.depth + 1 FROM employees e JOIN chain c ON e.emp_id = c.manager_id) SELECT emp_id, depth FROM chain ORDER BY depth
WITH RECURSIVE sub (emp_id) AS (SELECT emp_id FROM employees WHERE emp_id = 1 UNION SELECT e.emp_id FROM employees e JOIN sub ON e.manager_id = sub.emp_id) SELECT count(*) FROM sub
SELECT name, age, rank() OVER (ORDER BY age DESC, singer_id) AS r FROM singer ORDER BY r
SELECT name, country, row_number() OVER (PARTITION BY country ORDER BY age, singer_id) AS rn FROM singer ORDER BY country, rn
SELECT name, age, avg(age) OVER (PARTITION BY country) AS country_avg FROM singer ORDER BY singer_id
SELECT name, age, sum(age) OVER (ORDER BY singer_id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS running FROM singer ORDER BY singer_id
SELECT name, lag(age) OVER (ORDER BY singer_id) AS prev_age, lead(age, 1, 0) OVER (ORDER BY singer_id) AS next_age FROM singer ORDER BY singer_id
SELECT country, dense_rank() OVER (ORDER BY country) AS dr FROM singer ORDER BY singer_id
SELECT name, ntile(3) OVER (ORDER BY age, singer_id) AS bucket FROM singer ORDER BY singer_id
SELECT name, first_value(name) OVER (PARTITION BY country ORDER BY age, singer_id) AS youngest FROM singer ORDER BY singer_id
SELECT name, count(*) OVER () AS total FROM singer ORDER BY singer_id
SELECT name, CASE WHEN age < 30 THEN 'young' WHEN age < 45 THEN 'middle' ELSE 'senior' END AS band FROM singer ORDER BY singer_id
SELECT CASE is_male WHEN 1 THEN 'male' ELSE 'female' END AS sex, count(*) FROM singer GROUP BY CASE is_male WHEN 1 THEN 'male' ELSE 'female' END
SELECT sum(CASE WHEN age > 40 THEN 1 ELSE 0 END) AS over40 FROM singer
SELECT country, GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') FROM singer GROUP BY country
SELECT GROUP_CONCAT(DISTINCT country ORDER BY country) FROM singer
SELECT year, group_concat(concert_name ORDER BY concert_id) AS names FROM concert GROUP BY year ORDER BY year
SELECT concert_name, year FROM concert ORDER BY year DESC, concert_id
SELECT year, count(*) FROM concert GROUP BY year HAVING count(*) > 2
SELECT concert.year, concert.theme FROM concert WHERE concert.year > 2013 ORDER BY concert.concert_id
SELECT c.year AS y, count(*) FROM concert c GROUP BY y ORDER BY y
SELECT upper(name), lower(country), length(name) FROM singer ORDER BY singer_id
SELECT concat(name, ' (', country, ')') AS label FROM singer ORDER BY singer_id
SELECT substring(name, 1, 3), left(name, 2), right(name, 2) FROM singer ORDER BY singer_id
SELECT replace(name, ' ', '_'), trim(name), reverse(name) FROM singer ORDER BY singer_id
SELECT lpad(age, 5, '0'), rpad(name, 20, '.') FROM singer ORDER BY singer_id
SELECT repeat('-', age), space(3) FROM singer WHERE singer_id < 4 ORDER BY singer_id
SELECT locate('o', name), instr(name, 'a'), substring_index(name, ' ', 1) FROM singer ORDER BY singer_id
SELECT abs(age - 40), round(age / 3, 2), floor(age / 7), ceil(age / 7), mod(age, 5) FROM singer ORDER BY singer_id
SELECT age DIV 10 AS decade, count(*) FROM singer GROUP BY age DIV 10 ORDER BY decade
SELECT power(age, 2), sqrt(age), truncate(age / 3, 1) FROM singer ORDER BY singer_id
SELECT coalesce(customer_id, 0), ifnull(customer_id, -1) FROM orders WHERE order_id < 30 ORDER BY order_id
SELECT nullif(status, 'OPEN'), if(status = 'PAID', 1, 0) FROM orders WHERE order_id < 20 ORDER BY order_id
SELECT greatest(highest, average), least(lowest, average) FROM stadium ORDER BY stadium_id
SELECT CAST(price AS SIGNED), CAST(price AS CHAR), CAST(price AS DECIMAL(10,1)) FROM products ORDER BY product_id
SELECT CAST(price AS FLOAT) > 50 FROM products ORDER BY product_id
SELECT CAST(price AS DOUBLE) * 2 FROM products WHERE product_id < 5 ORDER BY product_id
SELECT CAST(order_date AS CHAR), CAST('2022-03-04' AS DATE) FROM orders WHERE order_id = 5
SELECT CAST(quantity AS UNSIGNED) + 1 FROM order_items WHERE order_id = 3 ORDER BY product_id
SELECT order_id, order_date + INTERVAL 7 DAY FROM orders WHERE order_id < 10 ORDER BY order_id
SELECT order_id, date_add(order_date, INTERVAL 1 MONTH), date_sub(order_date, INTERVAL 2 WEEK) FROM orders WHERE order_id < 10 ORDER BY order_id
SELECT count(*) FROM orders WHERE order_date >= DATE '2022-06-01' - INTERVAL 30 DAY
SELECT year(order_date), month(order_date), count(*) FROM orders GROUP BY year(order_date), month(order_date) ORDER BY 1, 2
SELECT dayofmonth(order_date), weekday(order_date), dayofweek(order_date), dayofyear(order_date) FROM orders WHERE order_id < 8 ORDER BY order_id
SELECT date(order_date), quarter(order_date), week(order_date), monthname(order_date), dayname(order_date) FROM orders WHERE order_id < 8 ORDER BY order_id
SELECT datediff('2023-01-01', order_date), last_day(order_date) FROM orders WHERE order_id < 8 ORDER BY order_id
SELECT makedate(2022, 100), subdate(order_date, 3), adddate(order_date, 10) FROM orders WHERE order_id = 2
SELECT date_format(order_date, '%Y-%m'), count(*) FROM orders GROUP BY date_format(order_date, '%Y-%m') ORDER BY 1
SELECT timestampdiff(MONTH, signup_date, '2023-01-01') FROM customers ORDER BY customer_id
SELECT EXTRACT(YEAR FROM order_date), EXTRACT(MONTH FROM order_date) FROM orders WHERE order_id < 5 ORDER BY order_id
SELECT to_days(order_date) - to_days(signup_date) FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE o.order_id < 20 ORDER BY o.order_id
SELECT str_to_date('2022-01-15', '%Y-%m-%d')
SELECT segment, count(*) FROM customers GROUP BY segment ORDER BY segment
SELECT city, count(*) AS n FROM customers GROUP BY city HAVING n >= 6 ORDER BY city
SELECT c.name, count(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id, c.name ORDER BY c.customer_id
SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id WHERE o.order_id IS NULL ORDER BY c.customer_id
SELECT o.order_id, c.name FROM customers c RIGHT JOIN orders o ON o.customer_id = c.customer_id WHERE o.order_id < 30 ORDER BY o.order_id
SELECT count(*) FROM orders WHERE customer_id IS NULL
SELECT status, count(*), sum(CASE WHEN customer_id IS NULL THEN 1 ELSE 0 END) FROM orders GROUP BY status ORDER BY status
SELECT o.order_id, sum(oi.quantity * oi.unit_price) AS total FROM orders o JOIN order_items oi ON oi.order_id = o.order_id GROUP BY o.order_id ORDER BY total DESC, o.order_id LIMIT 10
SELECT p.category, sum(oi.quantity) FROM order_items oi JOIN products p ON p.product_id = oi.product_id GROUP BY p.category ORDER BY p.category
SELECT p.name FROM products p WHERE p.product_id NOT IN (SELECT product_id FROM order_items) ORDER BY p.product_id
SELECT p.name, p.price FROM products p WHERE p.price > (SELECT avg(price) FROM products) ORDER BY p.price DESC, p.product_id
SELECT category, avg(price), max(price) - min(price) AS spread FROM products GROUP BY category ORDER BY category
SELECT name, price FROM products WHERE price = (SELECT max(price) FROM products)
SELECT p.category, p.name, p.price FROM products p WHERE p.price = (SELECT max(p2.price) FROM products p2 WHERE p2.category = p.category) ORDER BY p.category
SELECT c.city, sum(oi.quantity * oi.unit_price) FROM customers c JOIN orders o ON o.customer_id = c.customer_id JOIN order_items oi ON oi.order_id = o.order_id WHERE o.status <> 'CANCELLED' GROUP BY c.city ORDER BY c.city
SELECT c.segment, count(DISTINCT o.customer_id) FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.segment ORDER BY c.segment
SELECT name FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE status = 'PAID') AND customer_id NOT IN (SELECT customer_id FROM orders WHERE status = 'CANCELLED' AND customer_id IS NOT NULL) ORDER BY customer_id
SELECT customer_id FROM orders WHERE status = 'PAID' INTERSECT SELECT customer_id FROM orders WHERE status = 'SHIPPED'
SELECT customer_id FROM customers EXCEPT SELECT customer_id FROM orders
SELECT city FROM customers UNION SELECT location FROM stadium
SELECT city FROM customers UNION ALL SELECT location FROM stadium
SELECT name FROM customers WHERE city = 'Paris' UNION SELECT name FROM customers WHERE segment = 'online' ORDER BY name
SELECT t.status, t.n FROM (SELECT status, count(*) AS n FROM orders GROUP BY status) t ORDER BY t.n DESC, t.status
SELECT avg(t.total) FROM (SELECT order_id, sum(quantity * unit_price) AS total FROM order_items GROUP BY order_id) t
WITH totals AS (SELECT order_id, sum(quantity * unit_price) AS total FROM order_items GROUP BY order_id) SELECT o.status, avg(t.total) FROM totals t JOIN orders o ON o.order_id = t.order_id GROUP BY o.status ORDER BY o.status
WITH big AS (SELECT order_id FROM order_items GROUP BY order_id HAVING sum(quantity) > 8) SELECT count(*) FROM big
WITH c AS (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id), m AS (SELECT max(n) AS mx FROM c) SELECT c.customer_id FROM c, m WHERE c.n = m.mx ORDER BY c.customer_id
SELECT customer_id, order_id, sum(1) OVER (PARTITION BY customer_id ORDER BY order_id) AS nth FROM orders WHERE customer_id < 5 ORDER BY customer_id, order_id
SELECT order_id, order_date, rank() OVER (PARTITION BY status ORDER BY order_date, order_id) AS r FROM orders WHERE order_id < 40 ORDER BY order_id
SELECT category, name, price, rank() OVER (PARTITION BY category ORDER BY price DESC, product_id) AS r FROM products ORDER BY category, r
SELECT x.category, x.name FROM (SELECT category, name, row_number() OVER (PARTITION BY category ORDER BY price DESC, product_id) AS rn FROM products) x WHERE x.rn = 1 ORDER BY x.category
SELECT number, status FROM orders WHERE order_id < 6 ORDER BY order_id
SELECT o.number FROM orders o WHERE o.order_id = 7
SELECT uuid, name FROM customers WHERE customer_id < 4 ORDER BY customer_id
SELECT c.uuid FROM customers c WHERE c.city = 'Oslo' ORDER BY c.customer_id
SELECT name, only FROM products WHERE only = 1 ORDER BY product_id
SELECT count(*) FROM products p WHERE p.only = 0
SELECT name, window FROM departments ORDER BY dept_id
SELECT d.window, count(*) FROM departments d GROUP BY d.window ORDER BY d.window
SELECT name, current FROM employees WHERE current = 0 ORDER BY emp_id
SELECT e.current, count(*) FROM employees e GROUP BY e.current ORDER BY e.current
SELECT name, month FROM employees WHERE month = 3 ORDER BY emp_id
SELECT month, count(*) FROM employees GROUP BY month ORDER BY month
SELECT e.month, avg(e.salary) FROM employees e GROUP BY e.month ORDER BY e.month
SELECT year, count(*) FROM concert WHERE year > 2012 GROUP BY year ORDER BY year
SELECT max(year), min(year) FROM concert
SELECT concert_name FROM concert WHERE year IN (2013, 2015) ORDER BY concert_id
SELECT d.name, count(e.emp_id), avg(e.salary) FROM departments d LEFT JOIN employees e ON e.dept_id = d.dept_id GROUP BY d.dept_id, d.name ORDER BY d.dept_id
SELECT d.name FROM departments d WHERE NOT EXISTS (SELECT 1 FROM employees e WHERE e.dept_id = d.dept_id)
SELECT e.name, m.name AS manager FROM employees e JOIN employees m ON e.manager_id = m.emp_id WHERE e.emp_id < 25 ORDER BY e.emp_id
SELECT m.name, count(*) FROM employees e JOIN employees m ON e.manager_id = m.emp_id GROUP BY m.emp_id, m.name ORDER BY count(*) DESC, m.emp_id
SELECT name, salary FROM employees WHERE salary > (SELECT avg(salary) FROM employees) ORDER BY salary DESC, emp_id
SELECT e.name FROM employees e WHERE e.salary > (SELECT avg(e2.salary) FROM employees e2 WHERE e2.dept_id = e.dept_id) ORDER BY e.emp_id
SELECT dept_id, max(salary), min(salary), sum(salary) FROM employees GROUP BY dept_id ORDER BY dept_id
SELECT dept_id, count(*) FROM employees WHERE hire_date >= '2015-01-01' GROUP BY dept_id HAVING count(*) > 3 ORDER BY dept_id
SELECT year(hire_date) AS y, count(*) FROM employees GROUP BY year(hire_date) ORDER BY y
SELECT name, salary, salary - avg(salary) OVER (PARTITION BY dept_id) AS diff FROM employees ORDER BY emp_id
SELECT name, salary, percent_rank() OVER (ORDER BY salary) AS pr FROM employees ORDER BY emp_id
SELECT name, cume_dist() OVER (ORDER BY salary) AS cd FROM employees ORDER BY emp_id
SELECT dept_id, name, salary FROM (SELECT dept_id, name, salary, dense_rank() OVER (PARTITION BY dept_id ORDER BY salary DESC) AS r FROM employees) ranked WHERE r <= 2 ORDER BY dept_id, salary DESC, name
WITH dept_avg AS (SELECT dept_id, avg(salary) AS a FROM employees GROUP BY dept_id) SELECT d.name, da.a FROM dept_avg da JOIN departments d ON d.dept_id = da.dept_id ORDER BY da.a DESC
WITH RECURSIVE org (emp_id, lvl) AS (SELECT emp_id, 1 FROM employees WHERE manager_id IS NULL UNION ALL SELECT e.emp_id, o.lvl + 1 FROM employees e JOIN org o ON e.manager_id = o.emp_id WHERE o.lvl < 5) SELECT lvl, count(*) FROM org GROUP BY lvl ORDER BY lvl
SELECT d.name, d.budget, (SELECT sum(e.salary) FROM employees e WHERE e.dept_id = d.dept_id) AS payroll FROM departments d ORDER BY d.dept_id
SELECT name FROM departments WHERE budget > (SELECT sum(salary) FROM employees WHERE employees.dept_id = departments.dept_id)
SELECT count(*) FROM employees WHERE manager_id IS NOT NULL AND current = 1
SELECT name FROM employees WHERE name LIKE 'Employee 1%' ORDER BY emp_id
SELECT name FROM employees WHERE name NOT LIKE '%5' AND dept_id = 2 ORDER BY emp_id
SELECT count(*) FROM employees WHERE dept_id IN (SELECT dept_id FROM departments WHERE budget > 200000)
SELECT count(*) FROM employees WHERE hire_date BETWEEN '2012-01-01' AND '2016-12-31'
SELECT name, hire_date FROM employees WHERE hire_date = (SELECT min(hire_date) FROM employees)
SELECT dept_id FROM employees GROUP BY dept_id HAVING avg(salary) > (SELECT avg(salary) FROM employees) ORDER BY dept_id
SELECT d.name, e.name FROM departments d JOIN employees e ON e.dept_id = d.dept_id AND e.salary > 80000 ORDER BY e.emp_id
SELECT a.name, b.name FROM singer a JOIN singer b ON a.country = b.country AND a.singer_id < b.singer_id ORDER BY a.singer_id, b.singer_id
SELECT country FROM singer GROUP BY country HAVING count(*) = 1 ORDER BY country
SELECT country FROM singer WHERE is_male = 1 EXCEPT SELECT country FROM singer WHERE is_male = 0
SELECT name FROM singer ORDER BY name LIMIT 5 OFFSET 2
SELECT name FROM singer ORDER BY name LIMIT 2, 3
SELECT count(DISTINCT country) FROM singer
SELECT count(DISTINCT country, is_male) FROM singer
SELECT max(song_release_year) - min(song_release_year) FROM singer
SELECT country, avg(age) AS a FROM singer GROUP BY country ORDER BY a DESC, country LIMIT 2
SELECT song_name FROM singer WHERE age > (SELECT min(age) FROM singer WHERE country = 'France') ORDER BY singer_id
SELECT stadium_id, count(*) FROM concert GROUP BY stadium_id HAVING count(*) >= 2 ORDER BY stadium_id
SELECT s.name, COUNT(c.concert_id) FROM stadium s LEFT JOIN concert c ON s.stadium_id = c.stadium_id GROUP BY s.stadium_id, s.name ORDER BY s.stadium_id
SELECT Name, Capacity FROM stadium WHERE Stadium_ID = 3
SELECT `name`, `capacity` FROM `stadium` WHERE `stadium_id` = 4
SELECT T1.name, T2.theme FROM stadium AS T1 JOIN concert AS T2 ON T1.stadium_id = T2.stadium_id ORDER BY T2.concert_id
SELECT name, age FROM singer WHERE age >= 30 AND age <= 40 ORDER BY singer_id
SELECT name FROM singer WHERE country = 'France' OR (country = 'Japan' AND age > 25) ORDER BY singer_id
SELECT name FROM singer WHERE NOT (age > 30) ORDER BY singer_id
SELECT name FROM singer WHERE country IN ('France', 'Japan') AND is_male <> 0 ORDER BY singer_id
SELECT country, sum(is_male), count(*) - sum(is_male) FROM singer GROUP BY country ORDER BY country
SELECT -age, +age, age * 2 + 1, (age - 1) / 2, age % 7 FROM singer ORDER BY singer_id
SELECT 1 + 2, 'x', NULL, 3.5, TRUE
SELECT count(*) FROM (SELECT DISTINCT country FROM singer) t
SELECT (SELECT count(*) FROM singer) + (SELECT count(*) FROM stadium)
SELECT count(*) FROM singer WHERE (SELECT max(age) FROM singer) > 50
SELECT status, count(*) FROM orders WHERE order_date BETWEEN DATE '2022-01-01' AND DATE '2022-06-30' GROUP BY status ORDER BY status
SELECT o.status, round(avg(oi.quantity), 2) FROM orders o JOIN order_items oi ON o.order_id = oi.order_id GROUP BY o.status ORDER BY o.status
SELECT product_id, sum(quantity) AS q FROM order_items GROUP BY product_id ORDER BY q DESC, product_id LIMIT 5
SELECT p.name, coalesce(sum(oi.quantity), 0) AS sold FROM products p LEFT JOIN order_items oi ON oi.product_id = p.product_id GROUP BY p.product_id, p.name ORDER BY sold DESC, p.product_id
SELECT c.name, max(o.order_date) FROM customers c JOIN orders o ON o.customer_id = c.customer_id GROUP BY c.customer_id, c.name ORDER BY c.customer_id
SELECT c.name FROM customers c WHERE (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id) > 4 ORDER BY c.customer_id
SELECT c.name, x.n FROM customers c JOIN (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id) x ON x.customer_id = c.customer_id WHERE x.n >= 4 ORDER BY c.customer_id
WITH paid AS (SELECT * FROM orders WHERE status = 'PAID') SELECT count(*), min(order_date), max(order_date) FROM paid
WITH s AS (SELECT customer_id, sum(oi.quantity * oi.unit_price) AS spent FROM orders o JOIN order_items oi ON oi.order_id = o.order_id GROUP BY customer_id) SELECT c.segment, sum(s.spent) FROM s JOIN customers c ON c.customer_id = s.customer_id GROUP BY c.segment ORDER BY c.segment
SELECT month(order_date) AS m, sum(CASE WHEN status = 'PAID' THEN 1 ELSE 0 END) AS paid, count(*) AS total FROM orders GROUP BY month(order_date) ORDER BY m
SELECT category, count(*) FROM products WHERE price > 40 GROUP BY category HAVING count(*) > 1 ORDER BY category
SELECT name, price, price * 1.2 AS gross FROM products WHERE category = 'books' ORDER BY product_id
SELECT name FROM products WHERE name LIKE 'Product 1_' ORDER BY product_id
SELECT category, min(price) FROM products GROUP BY category HAVING min(price) < 30 ORDER BY category
SELECT p.category, avg(oi.unit_price * oi.quantity) FROM products p JOIN order_items oi ON oi.product_id = p.product_id JOIN orders o ON o.order_id = oi.order_id WHERE o.status = 'PAID' GROUP BY p.category ORDER BY p.category
SELECT count(*) FROM order_items WHERE quantity * unit_price > 100
SELECT order_id FROM order_items GROUP BY order_id HAVING count(*) = 4 ORDER BY order_id
SELECT order_id, count(DISTINCT product_id) FROM order_items GROUP BY order_id HAVING count(DISTINCT product_id) > 2 ORDER BY order_id
SELECT DISTINCT o.status FROM orders o JOIN order_items oi ON oi.order_id = o.order_id WHERE oi.quantity = 5 ORDER BY o.status
SELECT status FROM orders GROUP BY status ORDER BY count(*) DESC, status LIMIT 1
SELECT count(*) FROM customers WHERE signup_date < '2021-06-01'
SELECT city, min(signup_date), max(signup_date) FROM customers GROUP BY city ORDER BY city
SELECT name FROM customers WHERE city = 'Paris' AND segment = 'retail' ORDER BY customer_id
SELECT segment, group_concat(name ORDER BY customer_id SEPARATOR '|') FROM customers WHERE customer_id <= 12 GROUP BY segment ORDER BY segment
SELECT city, count(*) FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE order_date > '2022-10-01') GROUP BY city ORDER BY city
SELECT name, signup_date, row_number() OVER (PARTITION BY city ORDER BY signup_date, customer_id) AS rn FROM customers ORDER BY customer_id
SELECT c1.name, c2.name FROM customers c1, customers c2 WHERE c1.city = c2.city AND c1.customer_id + 6 = c2.customer_id ORDER BY c1.customer_id
SELECT e.name FROM employees e WHERE e.dept_id = (SELECT dept_id FROM departments WHERE name = 'Engineering') ORDER BY e.emp_id
SELECT name FROM employees WHERE emp_id IN (SELECT manager_id FROM employees WHERE manager_id IS NOT NULL) ORDER BY emp_id
SELECT name FROM employees WHERE emp_id NOT IN (SELECT manager_id FROM employees WHERE manager_id IS NOT NULL) AND dept_id = 1 ORDER BY emp_id
SELECT count(*) FROM employees e WHERE EXISTS (SELECT 1 FROM employees r WHERE r.manager_id = e.emp_id)
SELECT d.name, sum(e.salary) / d.budget AS ratio FROM departments d JOIN employees e ON e.dept_id = d.dept_id GROUP BY d.dept_id, d.name, d.budget ORDER BY d.dept_id
SELECT name FROM employees WHERE salary BETWEEN 40000 AND 50000 ORDER BY emp_id
SELECT dept_id, sum(CASE WHEN current = 1 THEN salary ELSE 0 END) FROM employees GROUP BY dept_id ORDER BY dept_id
SELECT name FROM employees WHERE hire_date > DATE '2015-01-01' + INTERVAL 1 YEAR ORDER BY emp_id
SELECT emp_id, datediff(DATE '2025-01-01', hire_date) DIV 365 AS years FROM employees WHERE emp_id < 10 ORDER BY emp_id
SELECT name FROM employees ORDER BY salary DESC, emp_id LIMIT 3
SELECT name FROM employees WHERE dept_id = 3 UNION SELECT name FROM departments ORDER BY 1
SELECT dept_id FROM employees WHERE salary > 85000 INTERSECT SELECT dept_id FROM departments WHERE budget > 100000
SELECT dept_id FROM departments EXCEPT SELECT dept_id FROM employees
SELECT x.d, x.c FROM (SELECT dept_id AS d, count(*) AS c FROM employees GROUP BY dept_id) AS x JOIN departments y ON y.dept_id = x.d WHERE y.budget > 100000 ORDER BY x.d
SELECT avg(salary) FROM employees WHERE dept_id = 2 AND current = 1
SELECT max(salary) FROM employees WHERE salary < (SELECT max(salary) FROM employees)
SELECT count(*) FROM employees WHERE manager_id IN (SELECT emp_id FROM employees WHERE dept_id = 1)
SELECT json_extract('{"a": 1, "b": [1, 2]}', '$.b[1]'), json_length('[1, 2, 3]'), json_valid('{')
SELECT json_unquote(json_extract(concat('{"n": "', name, '"}'), '$.n')) FROM singer ORDER BY singer_id
SELECT concat_ws('-', country, name) FROM singer ORDER BY singer_id
SELECT char_length(name), octet_length(name), upper(left(name, 1)) FROM singer ORDER BY singer_id
SELECT md5(name), sha1(country), hex(age) FROM singer ORDER BY singer_id
SELECT strcmp(name, 'M'), field(country, 'France', 'Japan'), find_in_set('b', 'a,b,c') FROM singer ORDER BY singer_id
SELECT format(price, 1), round(price), sign(price - 50) FROM products ORDER BY product_id
SELECT exp(1) > 2, ln(10) > 2, log10(1000), log2(8), pi() > 3
SELECT sin(0), cos(0), tan(0), atan(1) > 0, degrees(pi()), radians(180) > 3
SELECT std(age) > 0, stddev(age) > 0, variance(age) > 0 FROM singer
SELECT bit_or(is_male), bit_and(is_male), bit_xor(is_male) FROM singer
SELECT name, ascii(name), ord(name), char(65) FROM singer WHERE singer_id = 1
SELECT time_to_sec('01:00:00'), sec_to_time(3600), maketime(1, 2, 3)
SELECT from_days(738000), to_seconds('2022-01-01') > 0, period_diff(202203, 202201)
SELECT count(*) FROM orders WHERE status = 'PAID' AND order_date < '2022-07-01' OR status = 'OPEN' AND order_date >= '2022-07-01'
SELECT count(*) FROM orders WHERE (status = 'PAID' OR status = 'SHIPPED') AND customer_id < 20
SELECT country, count(*), sum(age), min(age), max(age) FROM singer GROUP BY country ORDER BY country
SELECT country, avg(age) AS a FROM singer GROUP BY country HAVING count(*) > 1 ORDER BY a, country
SELECT count(*) FROM singer WHERE age > (SELECT avg(age) FROM singer)
SELECT singer_id, age FROM singer WHERE age >= (SELECT max(age) FROM singer x WHERE x.country = singer.country) ORDER BY singer_id
SELECT country FROM singer WHERE age IS NOT NULL UNION SELECT country FROM singer ORDER BY 1
WITH x AS (SELECT country AS grp, age AS v FROM singer) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT singer_id, rank() OVER (PARTITION BY country ORDER BY age, singer_id) AS r FROM singer ORDER BY singer_id, r
SELECT d.country, d.c FROM (SELECT country, count(*) AS c FROM singer GROUP BY country) d ORDER BY d.c DESC, d.country
SELECT is_male, count(*), sum(song_release_year), min(song_release_year), max(song_release_year) FROM singer GROUP BY is_male ORDER BY is_male
SELECT is_male, avg(song_release_year) AS a FROM singer GROUP BY is_male HAVING count(*) > 1 ORDER BY a, is_male
SELECT count(*) FROM singer WHERE song_release_year > (SELECT avg(song_release_year) FROM singer)
SELECT singer_id, song_release_year FROM singer WHERE song_release_year >= (SELECT max(song_release_year) FROM singer x WHERE x.is_male = singer.is_male) ORDER BY singer_id
SELECT is_male FROM singer WHERE song_release_year IS NOT NULL UNION SELECT is_male FROM singer ORDER BY 1
WITH x AS (SELECT is_male AS grp, song_release_year AS v FROM singer) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT singer_id, rank() OVER (PARTITION BY is_male ORDER BY song_release_year, singer_id) AS r FROM singer ORDER BY singer_id, r
SELECT d.is_male, d.c FROM (SELECT is_male, count(*) AS c FROM singer GROUP BY is_male) d ORDER BY d.c DESC, d.is_male
SELECT location, count(*), sum(capacity), min(capacity), max(capacity) FROM stadium GROUP BY location ORDER BY location
SELECT location, avg(capacity) AS a FROM stadium GROUP BY location HAVING count(*) > 1 ORDER BY a, location
SELECT count(*) FROM stadium WHERE capacity > (SELECT avg(capacity) FROM stadium)
SELECT stadium_id, capacity FROM stadium WHERE capacity >= (SELECT max(capacity) FROM stadium x WHERE x.location = stadium.location) ORDER BY stadium_id
SELECT location FROM stadium WHERE capacity IS NOT NULL UNION SELECT location FROM stadium ORDER BY 1
WITH x AS (SELECT location AS grp, capacity AS v FROM stadium) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT stadium_id, rank() OVER (PARTITION BY location ORDER BY capacity, stadium_id) AS r FROM stadium ORDER BY stadium_id, r
SELECT d.location, d.c FROM (SELECT location, count(*) AS c FROM stadium GROUP BY location) d ORDER BY d.c DESC, d.location
SELECT theme, count(*), sum(year), min(year), max(year) FROM concert GROUP BY theme ORDER BY theme
SELECT theme, avg(year) AS a FROM concert GROUP BY theme HAVING count(*) > 1 ORDER BY a, theme
SELECT count(*) FROM concert WHERE year > (SELECT avg(year) FROM concert)
SELECT concert_id, year FROM concert WHERE year >= (SELECT max(year) FROM concert x WHERE x.theme = concert.theme) ORDER BY concert_id
SELECT theme FROM concert WHERE year IS NOT NULL UNION SELECT theme FROM concert ORDER BY 1
WITH x AS (SELECT theme AS grp, year AS v FROM concert) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT concert_id, rank() OVER (PARTITION BY theme ORDER BY year, concert_id) AS r FROM concert ORDER BY concert_id, r
SELECT d.theme, d.c FROM (SELECT theme, count(*) AS c FROM concert GROUP BY theme) d ORDER BY d.c DESC, d.theme
SELECT city, count(*), sum(customer_id), min(customer_id), max(customer_id) FROM customers GROUP BY city ORDER BY city
SELECT city, avg(customer_id) AS a FROM customers GROUP BY city HAVING count(*) > 1 ORDER BY a, city
SELECT count(*) FROM customers WHERE customer_id > (SELECT avg(customer_id) FROM customers)
SELECT customer_id, customer_id FROM customers WHERE customer_id >= (SELECT max(customer_id) FROM customers x WHERE x.city = customers.city) ORDER BY customer_id
SELECT city FROM customers WHERE customer_id IS NOT NULL UNION SELECT city FROM customers ORDER BY 1
WITH x AS (SELECT city AS grp, customer_id AS v FROM customers) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT customer_id, rank() OVER (PARTITION BY city ORDER BY customer_id, customer_id) AS r FROM customers ORDER BY customer_id, r
SELECT d.city, d.c FROM (SELECT city, count(*) AS c FROM customers GROUP BY city) d ORDER BY d.c DESC, d.city
SELECT segment, count(*), sum(customer_id), min(customer_id), max(customer_id) FROM customers GROUP BY segment ORDER BY segment
SELECT segment, avg(customer_id) AS a FROM customers GROUP BY segment HAVING count(*) > 1 ORDER BY a, segment
SELECT customer_id, customer_id FROM customers WHERE customer_id >= (SELECT max(customer_id) FROM customers x WHERE x.segment = customers.segment) ORDER BY customer_id
SELECT segment FROM customers WHERE customer_id IS NOT NULL UNION SELECT segment FROM customers ORDER BY 1
WITH x AS (SELECT segment AS grp, customer_id AS v FROM customers) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT customer_id, rank() OVER (PARTITION BY segment ORDER BY customer_id, customer_id) AS r FROM customers ORDER BY customer_id, r
SELECT d.segment, d.c FROM (SELECT segment, count(*) AS c FROM customers GROUP BY segment) d ORDER BY d.c DESC, d.segment
SELECT category, count(*), sum(price), min(price), max(price) FROM products GROUP BY category ORDER BY category
SELECT category, avg(price) AS a FROM products GROUP BY category HAVING count(*) > 1 ORDER BY a, category
SELECT count(*) FROM products WHERE price > (SELECT avg(price) FROM products)
SELECT product_id, price FROM products WHERE price >= (SELECT max(price) FROM products x WHERE x.category = products.category) ORDER BY product_id
SELECT category FROM products WHERE price IS NOT NULL UNION SELECT category FROM products ORDER BY 1
WITH x AS (SELECT category AS grp, price AS v FROM products) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT product_id, rank() OVER (PARTITION BY category ORDER BY price, product_id) AS r FROM products ORDER BY product_id, r
SELECT d.category, d.c FROM (SELECT category, count(*) AS c FROM products GROUP BY category) d ORDER BY d.c DESC, d.category
SELECT status, count(*), sum(order_id), min(order_id), max(order_id) FROM orders GROUP BY status ORDER BY status
SELECT status, avg(order_id) AS a FROM orders GROUP BY status HAVING count(*) > 1 ORDER BY a, status
SELECT count(*) FROM orders WHERE order_id > (SELECT avg(order_id) FROM orders)
SELECT order_id, order_id FROM orders WHERE order_id >= (SELECT max(order_id) FROM orders x WHERE x.status = orders.status) ORDER BY order_id
SELECT status FROM orders WHERE order_id IS NOT NULL UNION SELECT status FROM orders ORDER BY 1
WITH x AS (SELECT status AS grp, order_id AS v FROM orders) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT order_id, rank() OVER (PARTITION BY status ORDER BY order_id, order_id) AS r FROM orders ORDER BY order_id, r
SELECT d.status, d.c FROM (SELECT status, count(*) AS c FROM orders GROUP BY status) d ORDER BY d.c DESC, d.status
SELECT product_id, count(*), sum(quantity), min(quantity), max(quantity) FROM order_items GROUP BY product_id ORDER BY product_id
SELECT product_id, avg(quantity) AS a FROM order_items GROUP BY product_id HAVING count(*) > 1 ORDER BY a, product_id
SELECT count(*) FROM order_items WHERE quantity > (SELECT avg(quantity) FROM order_items)
SELECT order_id, product_id, quantity FROM order_items WHERE quantity >= (SELECT max(quantity) FROM order_items x WHERE x.product_id = order_items.product_id) ORDER BY order_id, product_id
SELECT product_id FROM order_items WHERE quantity IS NOT NULL UNION SELECT product_id FROM order_items ORDER BY 1
WITH x AS (SELECT product_id AS grp, quantity AS v FROM order_items) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT order_id, product_id, rank() OVER (PARTITION BY product_id ORDER BY quantity, order_id, product_id) AS r FROM order_items ORDER BY order_id, product_id, r
SELECT d.product_id, d.c FROM (SELECT product_id, count(*) AS c FROM order_items GROUP BY product_id) d ORDER BY d.c DESC, d.product_id
SELECT dept_id, count(*), sum(salary), min(salary), max(salary) FROM employees GROUP BY dept_id ORDER BY dept_id
SELECT dept_id, avg(salary) AS a FROM employees GROUP BY dept_id HAVING count(*) > 1 ORDER BY a, dept_id
SELECT count(*) FROM employees WHERE salary > (SELECT avg(salary) FROM employees)
SELECT emp_id, salary FROM employees WHERE salary >= (SELECT max(salary) FROM employees x WHERE x.dept_id = employees.dept_id) ORDER BY emp_id
SELECT dept_id FROM employees WHERE salary IS NOT NULL UNION SELECT dept_id FROM employees ORDER BY 1
WITH x AS (SELECT dept_id AS grp, salary AS v FROM employees) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT emp_id, rank() OVER (PARTITION BY dept_id ORDER BY salary, emp_id) AS r FROM employees ORDER BY emp_id, r
SELECT d.dept_id, d.c FROM (SELECT dept_id, count(*) AS c FROM employees GROUP BY dept_id) d ORDER BY d.c DESC, d.dept_id
SELECT month, count(*), sum(salary), min(salary), max(salary) FROM employees GROUP BY month ORDER BY month
SELECT month, avg(salary) AS a FROM employees GROUP BY month HAVING count(*) > 1 ORDER BY a, month
SELECT emp_id, salary FROM employees WHERE salary >= (SELECT max(salary) FROM employees x WHERE x.month = employees.month) ORDER BY emp_id
SELECT month FROM employees WHERE salary IS NOT NULL UNION SELECT month FROM employees ORDER BY 1
WITH x AS (SELECT month AS grp, salary AS v FROM employees) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT emp_id, rank() OVER (PARTITION BY month ORDER BY salary, emp_id) AS r FROM employees ORDER BY emp_id, r
SELECT d.month, d.c FROM (SELECT month, count(*) AS c FROM employees GROUP BY month) d ORDER BY d.c DESC, d.month
SELECT `window`, count(*), sum(budget), min(budget), max(budget) FROM departments GROUP BY `window` ORDER BY `window`
SELECT `window`, avg(budget) AS a FROM departments GROUP BY `window` HAVING count(*) > 1 ORDER BY a, `window`
SELECT count(*) FROM departments WHERE budget > (SELECT avg(budget) FROM departments)
SELECT dept_id, budget FROM departments WHERE budget >= (SELECT max(budget) FROM departments x WHERE x.`window` = departments.`window`) ORDER BY dept_id
SELECT `window` FROM departments WHERE budget IS NOT NULL UNION SELECT `window` FROM departments ORDER BY 1
WITH x AS (SELECT `window` AS grp, budget AS v FROM departments) SELECT grp, count(*) FROM x WHERE v IS NOT NULL GROUP BY grp ORDER BY grp
SELECT dept_id, rank() OVER (PARTITION BY `window` ORDER BY budget, dept_id) AS r FROM departments ORDER BY dept_id, r
SELECT d.`window`, d.c FROM (SELECT `window`, count(*) AS c FROM departments GROUP BY `window`) d ORDER BY d.c DESC, d.`window`
SELECT name, age > 30 = is_male AS same FROM singer ORDER BY singer_id
SELECT count(*) FROM singer WHERE country = 'France' = is_male
SELECT count(*) FROM employees WHERE current = 1 = (dept_id = 2)
SELECT emp_id FROM employees WHERE salary > 50000 = current AND dept_id = 1 ORDER BY emp_id
SELECT a.name FROM singer a JOIN singer b ON a.singer_id = b.singer_id WHERE a.age = b.age = 1 ORDER BY a.singer_id
SELECT name, country FROM singer WHERE name REGEXP '^[A-M]' ORDER BY singer_id
SELECT count(*) FROM singer WHERE song_name NOT RLIKE '[0-9]'
SELECT name FROM customers WHERE city REGEXP 'on$|^Ber' AND segment NOT REGEXP 'corp' ORDER BY customer_id
SELECT category, count(*) AS n FROM products WHERE name REGEXP 'a.*e' GROUP BY category ORDER BY category
SELECT name FROM singer WHERE name COLLATE utf8mb4_bin LIKE '%a%' ORDER BY singer_id
SELECT name COLLATE utf8mb4_general_ci AS n, age FROM singer ORDER BY name COLLATE utf8mb4_bin, singer_id
SELECT city COLLATE utf8mb4_bin AS c, count(*) AS n FROM customers GROUP BY c ORDER BY c
SELECT CONVERT(name USING utf8mb4) AS n, CONVERT(city USING latin1) AS c FROM customers ORDER BY customer_id
SELECT length(CONVERT(name USING binary)) AS bytes FROM products ORDER BY product_id
SELECT emp_id, salary, sum(salary) OVER w AS running, rank() OVER w AS r FROM employees WINDOW w AS (PARTITION BY dept_id ORDER BY salary DESC, emp_id) ORDER BY emp_id
SELECT order_id, order_date, count(*) OVER w AS n FROM orders WINDOW w AS (ORDER BY order_date, order_id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) ORDER BY order_id
SELECT d.name, e.name, avg(e.salary) OVER dw AS dept_avg, max(e.salary) OVER dw AS dept_max FROM employees e JOIN departments d ON e.dept_id = d.dept_id WINDOW dw AS (PARTITION BY d.dept_id) ORDER BY e.emp_id
SELECT s.name, count(*) FROM singer s JOIN singer_in_concert USING (singer_id) GROUP BY s.singer_id, s.name
SELECT * FROM singer_in_concert JOIN singer USING (singer_id)
SELECT * FROM singer NATURAL JOIN singer_in_concert
SELECT * FROM concert NATURAL JOIN singer_in_concert NATURAL JOIN singer
SELECT name, theme FROM concert JOIN singer_in_concert USING (concert_id) JOIN singer USING (singer_id) WHERE year = 2014
SELECT * FROM stadium NATURAL JOIN concert
SELECT * FROM stadium s LEFT JOIN concert c USING (stadium_id)
SELECT * FROM concert RIGHT JOIN stadium USING (stadium_id)
SELECT stadium_id, count(concert_id) FROM stadium LEFT JOIN concert USING (stadium_id) GROUP BY stadium_id
SELECT stadium_id, count(concert_id) AS n FROM concert RIGHT JOIN stadium USING (stadium_id) GROUP BY stadium_id ORDER BY n DESC, stadium_id
SELECT * FROM employees NATURAL JOIN departments
SELECT * FROM employees NATURAL LEFT JOIN departments
SELECT * FROM employees NATURAL RIGHT JOIN departments
SELECT e.name, d.name FROM employees e JOIN departments d USING (dept_id) ORDER BY e.emp_id
SELECT dept_id, d.name, count(*), avg(salary) FROM employees JOIN departments d USING (dept_id) GROUP BY dept_id, d.name
SELECT * FROM orders JOIN order_items USING (order_id) JOIN products USING (product_id) WHERE status = 'PAID'
SELECT customer_id, c.name, sum(quantity * unit_price) FROM customers c JOIN orders USING (customer_id) JOIN order_items USING (order_id) GROUP BY customer_id, c.name
SELECT * FROM customers NATURAL JOIN orders
SELECT count(*) FROM customers, orders JOIN order_items USING (order_id)
SELECT c.city, o.order_id, status FROM customers c, orders o JOIN order_items USING (order_id) WHERE c.customer_id = o.customer_id AND quantity > 3
SELECT * FROM order_items JOIN orders USING (order_id) WHERE order_id < 5
SELECT order_id, product_id FROM order_items NATURAL JOIN orders WHERE status = 'OPEN' ORDER BY order_id, product_id
SELECT * FROM (SELECT dept_id, count(*) AS n FROM employees GROUP BY dept_id) x JOIN departments USING (dept_id)
WITH t AS (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id) SELECT * FROM customers NATURAL JOIN t
SELECT * FROM products p LEFT JOIN order_items oi USING (product_id) WHERE oi.order_id IS NULL
SELECT * FROM singer JOIN singer_in_concert USING (singer_id) JOIN concert USING (concert_id) JOIN stadium USING (stadium_id)
SELECT singer_id FROM singer NATURAL LEFT JOIN singer_in_concert WHERE concert_id IS NULL
SELECT * FROM employees e JOIN departments d USING (dept_id) WHERE e.`current` = 1
SELECT `month`, count(*) FROM employees JOIN departments USING (dept_id) GROUP BY `month`
SELECT o.*, c.city FROM orders o LEFT JOIN customers c USING (customer_id) WHERE o.status = 'SHIPPED'
SELECT name, CONVERT(age, CHAR) FROM singer ORDER BY singer_id
SELECT CONVERT(price, SIGNED) FROM products ORDER BY product_id
SELECT CONVERT(order_date, CHAR(7)) AS ym, count(*) FROM orders GROUP BY ym
SELECT sum(CONVERT(quantity, DECIMAL(10,2)) * unit_price) FROM order_items
SELECT name FROM customers WHERE CONVERT(signup_date, DATETIME) >= '2021-06-01 00:00:00'
SELECT CONVERT(salary / 12, DECIMAL(10, 2)) AS monthly FROM employees ORDER BY emp_id
SELECT concat(name, ' (', CONVERT(song_release_year, CHAR), ')') FROM singer ORDER BY singer_id
SELECT CONVERT(CONVERT(price, CHAR) USING utf8mb4) FROM products ORDER BY product_id
SELECT country FROM singer WHERE CONVERT(age, UNSIGNED) > 30 ORDER BY singer_id
SELECT CONVERT(hire_date, DATE), CONVERT(budget, DOUBLE) FROM employees JOIN departments USING (dept_id)
SELECT country, count(*) FROM singer GROUP BY country WITH ROLLUP
SELECT category, count(*), sum(price) FROM products GROUP BY category WITH ROLLUP
SELECT status, year(order_date) AS y, count(*) FROM orders GROUP BY status, y WITH ROLLUP
SELECT dept_id, `month`, avg(salary) FROM employees GROUP BY dept_id, `month` WITH ROLLUP
SELECT * FROM (SELECT theme, count(*) AS n FROM concert GROUP BY theme WITH ROLLUP) x ORDER BY n DESC, theme
SELECT coalesce(city, 'all') AS c, count(*) FROM customers GROUP BY city WITH ROLLUP
SELECT segment, count(*) AS n FROM customers GROUP BY segment WITH ROLLUP HAVING n > 1
SELECT s.name, count(*) FROM singer s JOIN singer_in_concert USING (singer_id) GROUP BY s.name WITH ROLLUP
SELECT year, count(*) FROM concert GROUP BY year WITH ROLLUP
SELECT stadium_id, theme, count(*) FROM concert GROUP BY stadium_id, theme WITH ROLLUP HAVING stadium_id IS NULL OR theme IS NULL
SELECT category, count(*) FROM products GROUP BY category WITH ROLLUP LIMIT 3
SELECT count(*) FROM departments NATURAL LEFT JOIN singer_in_concert
SELECT * FROM singer_in_concert NATURAL RIGHT JOIN departments WHERE singer_id < 3
SELECT * FROM departments d NATURAL JOIN (SELECT dept_id, count(*) AS n FROM employees GROUP BY dept_id) x
SELECT * FROM (SELECT upper(city) AS city, customer_id AS k FROM customers) u JOIN customers USING (city)
SELECT * FROM (SELECT upper(city) AS city FROM customers WHERE customer_id < 4) u RIGHT JOIN customers USING (city)
SELECT city, segment FROM customers NATURAL LEFT JOIN (SELECT lower(city) AS city, segment FROM customers WHERE customer_id > 5) x
SELECT * FROM (SELECT customer_id, concat(customer_id, '.0') AS oid FROM customers) a RIGHT JOIN (SELECT order_id AS oid, status FROM orders) b USING (oid)
SELECT * FROM (SELECT customer_id, concat(customer_id, '.0') AS oid FROM customers) a JOIN (SELECT order_id AS oid, status FROM orders) b USING (oid)
SELECT customers.city, orders.order_id, c2.name FROM customers, orders JOIN customers c2 USING (customer_id) WHERE customers.customer_id = 1
SELECT * FROM customers, orders NATURAL JOIN customers c2 WHERE customers.customer_id = 2
-- a HAVING naming the alias of an expression item (issue 12): MariaDB reads the alias in the select list
SELECT age + 1 AS a1, count(*) AS n FROM singer GROUP BY a1 HAVING a1 > 30 ORDER BY a1
SELECT `year` - 2000 AS y2, count(*) FROM concert GROUP BY y2 HAVING y2 >= 14 ORDER BY y2
SELECT category, sum(price) AS total FROM products GROUP BY category HAVING total > 230 ORDER BY total DESC, category
SELECT dept_id, max(salary) - min(salary) AS spread FROM employees GROUP BY dept_id HAVING spread > 50000 ORDER BY dept_id
SELECT order_id, sum(quantity) AS q FROM order_items GROUP BY order_id HAVING q BETWEEN 5 AND 10 ORDER BY order_id
SELECT floor(price / 10) AS bucket, count(*) AS n FROM products GROUP BY bucket HAVING bucket > 2 AND n > 2 ORDER BY bucket
SELECT customer_id % 3 AS m3, count(*) AS n FROM customers GROUP BY m3 HAVING m3 <> 1 ORDER BY m3
SELECT country, max(age) + 1 AS a1 FROM singer GROUP BY country HAVING a1 > 30 AND count(*) > 1 ORDER BY country
SELECT country, age * 2 AS twice FROM singer GROUP BY country, twice HAVING max(twice) > 60 ORDER BY country, twice
SELECT length(segment) AS l, count(*) AS n FROM customers GROUP BY l WITH ROLLUP HAVING l > 6 OR l IS NULL
SELECT s.name, (SELECT count(*) FROM singer_in_concert sc WHERE sc.singer_id = s.singer_id) AS c FROM singer s HAVING c > 3 ORDER BY s.name
SELECT name FROM stadium st WHERE 2 <= (SELECT count(*) AS cnt FROM concert c WHERE c.stadium_id = st.stadium_id HAVING cnt >= 2) ORDER BY name
SELECT t.y2, t.n FROM (SELECT `year` % 100 AS y2, count(*) AS n FROM concert GROUP BY y2 HAVING y2 < 15) t ORDER BY t.y2
WITH a AS (SELECT dept_id, avg(salary) AS avg_sal FROM employees GROUP BY dept_id HAVING avg_sal > 55000) SELECT * FROM a ORDER BY dept_id
SELECT status, count(*) AS n FROM orders GROUP BY status HAVING n > 30 UNION ALL SELECT 'all', count(*) FROM orders ORDER BY 1
SELECT age + 1 AS a1, count(*) AS n FROM singer GROUP BY a1 ORDER BY a1 * -1, n
SELECT DISTINCT age + 1 AS a1 FROM singer ORDER BY -a1
SELECT country, avg(age) AS avg_age FROM singer GROUP BY country HAVING avg_age > 30 ORDER BY avg_age DESC, country
