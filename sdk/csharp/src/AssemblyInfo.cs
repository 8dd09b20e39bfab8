using System.Reflection;
using System.Runtime.CompilerServices;

[assembly: AssemblyTitle("Questline")]
[assembly: AssemblyDescription("Questline client SDK for .NET and Unity")]
// The C# SDK's own semantic version (docs/operations/versioning.md, CHANGELOG.md);
// AssemblyVersion is the same with a fourth part of 0.
[assembly: AssemblyVersion("0.1.0.0")]
[assembly: AssemblyInformationalVersion("0.1.0")]
[assembly: InternalsVisibleTo("Questline.Tests")]
