--[[
  Releases a lock while it holds the token, and publishes the release on the lock's channel (named
  as the lock) for those waiting.

  Input:
    KEYS[1]  the lock
    ARGV[1]  lock token

  Output:
    1 released, 0 the lock held another token or none
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', KEYS[1], '')
return 1
