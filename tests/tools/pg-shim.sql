-- Test-only: what the CLI tests' own sqlite3 queries use that PostgreSQL
-- spells otherwise, so that the same checks read either backend.
CREATE FUNCTION kb_concat_step(acc text, v anyelement) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN v IS NULL THEN acc WHEN acc IS NULL THEN v::text ELSE acc || ',' || v::text END $$;
CREATE AGGREGATE group_concat(anyelement) (SFUNC = kb_concat_step, STYPE = text);
CREATE FUNCTION kb_concat_step2(acc text, v anyelement, sep text) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN v IS NULL THEN acc WHEN acc IS NULL THEN v::text ELSE acc || sep || v::text END $$;
CREATE AGGREGATE group_concat(anyelement, text) (SFUNC = kb_concat_step2, STYPE = text);
-- printf(fmt, numbers...) for the conversions the tests use: %d, %.Nf, %.Ng
-- (%g as C prints it: exponent form below 1e-4 and from 10^N up).
CREATE FUNCTION printf(fmt text, VARIADIC a double precision[]) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out text := ''; i int := 1; k int := 1; c text; prec int; conv text; v double precision; m text[]; s text; e int;
BEGIN
  WHILE k <= length(fmt) LOOP
    c := substr(fmt, k, 1);
    IF c <> '%' THEN out := out || c; k := k + 1; CONTINUE; END IF;
    m := regexp_match(substr(fmt, k), '^%(\.([0-9]+))?([dfg%])');
    IF m IS NULL THEN RAISE EXCEPTION 'printf shim: unsupported format %', fmt; END IF;
    k := k + length(coalesce('%' || m[1], '%')) + 1;
    conv := m[3];
    IF conv = '%' THEN out := out || '%'; CONTINUE; END IF;
    v := a[i]; i := i + 1;
    IF v IS NULL THEN CONTINUE; END IF;
    prec := coalesce(m[2]::int, 6);
    IF conv = 'd' THEN
      out := out || trunc(v)::bigint::text;
    ELSIF conv = 'f' THEN
      out := out || to_char(round(v::numeric, prec), 'FM999999999999990' || CASE WHEN prec > 0 THEN '.' || repeat('0', prec) ELSE '' END);
    ELSE
      IF v = 0 THEN out := out || '0'; CONTINUE; END IF;
      IF prec = 0 THEN prec := 1; END IF;
      e := floor(log(abs(v::numeric)))::int;
      -- rounding to prec digits may carry into the next power of ten
      IF abs(round(v::numeric / power(10::numeric, e), prec - 1)) >= 10 THEN e := e + 1; END IF;
      IF e < -4 OR e >= prec THEN
        -- C's exponent form: 7.012e+04
        s := round(v::numeric / power(10::numeric, e), prec - 1)::text;
        IF s LIKE '%.%' THEN s := rtrim(rtrim(s, '0'), '.'); END IF;
        out := out || s || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END || lpad(abs(e)::text, 2, '0');
      ELSE
        s := round(v::numeric, greatest(prec - 1 - e, 0))::text;
        IF s LIKE '%.%' THEN s := rtrim(rtrim(s, '0'), '.'); END IF;
        out := out || s;
      END IF;
    END IF;
  END LOOP;
  RETURN out;
END $$;
CREATE FUNCTION ifnull(a anycompatible, b anycompatible) RETURNS anycompatible LANGUAGE sql IMMUTABLE AS
  $$ SELECT coalesce(a, b) $$;
