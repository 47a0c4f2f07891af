-- Numeric loops: integer arithmetic, branches, bitwise operators, float accumulation.
local s = 0
for i = 1, 3000000 do
  local x = i % 7
  if x < 3 then s = s + x * 2 else s = s - 1 end
  s = s ~ (i & 255)
end
local f = 0.0
local j = 0
while j < 1000000 do
  j = j + 1
  f = f + (j * 0.5) / (j + 1)
end
return s + math.floor(f)
