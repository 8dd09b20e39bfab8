using System.Reflection;
using System.Runtime.CompilerServices;

[assembly: AssemblyTitle("Questline")]
[assembly: AssemblyDescription("Questline client SDK for .NET and Unity")]
[assembly: AssemblyVersion("0.1.0.0")]
[assembly: InternalsVisibleTo("Questline.Tests")]
