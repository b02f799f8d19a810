const [command] = process.argv.slice(2);
console.error(`xmodels: unknown command ${command ?? '(none)'}`);
process.exit(2);
