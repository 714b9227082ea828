--[[
  Claims the due members of a sorted set scored by when each is due (ms since epoch): up to a
  number of members whose score is at or below now are rescored to the end of a lease and
  answered, in one step. Two callers running at once (two instances sweeping) never claim the
  same member; a claim its caller does not settle (removing or rescoring the member) comes due
  again when the lease ends.

  Input:
    KEYS[1]  the sorted set
    ARGV[1]  now, ms since epoch
    ARGV[2]  the end of the lease, ms since epoch
    ARGV[3]  at most this many members

  Output:
    the claimed members, lowest score first
]]
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[3])
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member)
end
return due
