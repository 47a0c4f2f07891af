-- Table insert + sort of 100k: an LCG (integer arithmetic past 2^53), table.insert, table.sort with and without a
-- comparator.
local t = {}
local seed = 42
for i = 1, 100000 do
  seed = (seed * 1103515245 + 12345) % 2147483648
  table.insert(t, seed)
end
table.sort(t)
local u = {}
for i = 1, 100000 do u[i] = { k = t[(i * 7919) % 100000 + 1] % 1000, i = i } end
table.sort(u, function(a, b) return a.k < b.k or (a.k == b.k and a.i < b.i) end)
local sum = 0
for i = 1, 100000, 1000 do sum = sum + t[i] % 1000 + u[i].i end
return sum
