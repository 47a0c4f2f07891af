-- Closure-heavy code: counters with shared upvalues, higher-order map/filter/reduce, composition, callbacks.
local function counter(start)
  local n = start
  return function(d)
    n = n + d
    return n
  end, function()
    return n
  end
end
local function map(t, f)
  local out = {}
  for i = 1, #t do out[i] = f(t[i]) end
  return out
end
local function filter(t, p)
  local out = {}
  for i = 1, #t do
    local v = t[i]
    if p(v) then out[#out + 1] = v end
  end
  return out
end
local function reduce(t, f, acc)
  for i = 1, #t do acc = f(acc, t[i]) end
  return acc
end
local function compose(f, g)
  return function(x) return f(g(x)) end
end
local total = 0
for round = 1, 1500 do
  local inc, get = counter(round)
  for i = 1, 200 do inc(i % 3) end
  local xs = {}
  for i = 1, 300 do xs[i] = i + round end
  local scale = round % 5 + 1
  local f = compose(function(x) return x * scale end, function(x) return x + 1 end)
  local ys = map(xs, f)
  local evens = filter(ys, function(y) return y % 2 == 0 end)
  local sum = reduce(evens, function(a, b) return a + b end, 0)
  local each = 0
  local function visit(cb) for i = 1, #evens, 3 do cb(evens[i], i) end end
  visit(function(v, i) each = each + v * i % 7 end)
  total = total + sum + get() + each
end
return total
