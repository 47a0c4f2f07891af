-- String building: concatenation, tostring, string.format, table.concat, string methods.
local parts = {}
for i = 1, 100000 do parts[#parts + 1] = "item" .. i .. ";" end
local s = table.concat(parts)
local acc = {}
for i = 1, 50000 do acc[#acc + 1] = string.format("%d:%s", i, string.rep("x", i % 5)) end
local u = table.concat(acc, ",")
local b = ""
for i = 1, 20000 do b = b .. tostring(i % 10) end
local up = s:upper():sub(1, 1000)
local rev = u:sub(1, 5000):reverse()
return #s + #u + #b + #up + #rev + b:byte(100)
