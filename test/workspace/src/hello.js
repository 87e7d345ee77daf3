// A small module for workers to read and edit in tests.
function greet(name) {
  return `Hello, ${name}!`;
}

module.exports = { greet };

if (require.main === module) {
  console.log(greet(process.argv[2] ?? 'world'));
}
